//! DIMACS CNF output, with the group and variable names as comments so that
//! a reader can tell which clause states which rule.

use std::io::{self, Write};

use super::Cnf;

impl Cnf {
    /// Writes the formula in DIMACS CNF. Comment lines name the variables
    /// given names and the group of each run of clauses.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// let mut cnf = Cnf::new();
    /// let a = cnf.new_var();
    /// cnf.open_group("a holds", None);
    /// cnf.add_clause(&[a.pos()]);
    /// let mut out = Vec::new();
    /// cnf.write_dimacs(&mut out).unwrap();
    /// let text = String::from_utf8(out).unwrap();
    /// assert!(text.contains("p cnf 1 1\n"));
    /// assert!(text.ends_with("1 0\n"));
    /// ```
    pub fn write_dimacs(&self, out: impl Write) -> io::Result<()> {
        self.write_dimacs_noted(out, &[])
    }

    /// [`Cnf::write_dimacs`] with `notes` as comment lines at the top, for
    /// what a reader of the file should know about it.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// let mut out = Vec::new();
    /// Cnf::new().write_dimacs_noted(&mut out, &["no clauses yet".to_string()]).unwrap();
    /// assert!(String::from_utf8(out).unwrap().contains("c no clauses yet\np cnf 0 0\n"));
    /// ```
    pub fn write_dimacs_noted(&self, out: impl Write, notes: &[String]) -> io::Result<()> {
        let mut out = io::BufWriter::new(out);
        writeln!(out, "c written by somaria {}", env!("CARGO_PKG_VERSION"))?;
        for note in notes {
            writeln!(out, "c {}", one_line(note))?;
        }
        for (var, name) in self.var_names() {
            writeln!(out, "c var {} = {}", var.dimacs(), one_line(name))?;
        }
        writeln!(out, "p cnf {} {}", self.num_vars(), self.num_clauses())?;
        let mut last_group = None;
        for (group, clause) in self.grouped_clauses() {
            if last_group != Some(group) {
                writeln!(out, "c group {}: {}", group.index(), one_line(&self.groups()[group.index()].name))?;
                last_group = Some(group);
            }
            for lit in clause {
                write!(out, "{} ", lit.dimacs())?;
            }
            writeln!(out, "0")?;
        }
        out.flush()
    }
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}
