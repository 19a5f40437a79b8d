//! SVG pictures rendered with resvg, for the suites that read a drawing's
//! pixels at known places (each suite adds its own cell geometry).
//!
//! [`Rendered::of`] leaves text out (no fonts are loaded), so that a check
//! of a cell's colour never lands on a digit; [`Rendered::with_text`] loads
//! the system's fonts and draws the labels too, for checks of where text
//! stands and for the PNGs a person looks at.

/// A rendered picture.
pub struct Rendered(pub resvg::tiny_skia::Pixmap);

impl Rendered {
    /// `svg` rendered at its own size, without its text; panics if it does
    /// not parse.
    pub fn of(svg: &str) -> Rendered {
        Rendered::render(svg, &resvg::usvg::Options::default(), 1.0)
    }

    /// `svg` rendered `scale` times its own size, without its text.
    pub fn scaled(svg: &str, scale: f32) -> Rendered {
        Rendered::render(svg, &resvg::usvg::Options::default(), scale)
    }

    /// `svg` rendered `scale` times its own size, its text drawn in the
    /// system's sans-serif font; panics if it does not parse or the system
    /// has no font.
    pub fn with_text(svg: &str, scale: f32) -> Rendered {
        let mut options = resvg::usvg::Options::default();
        let fonts = options.fontdb_mut();
        fonts.load_system_fonts();
        // The pictures ask for `sans-serif`, which fontdb takes for Arial:
        // DejaVu Sans (Debian's) when the system has it, else its first
        // plain sans-serif family by name, else its first family, so that
        // fonts installed later (Liberation Sans Narrow) do not change
        // which is drawn.
        let mut families: Vec<String> =
            fonts.faces().flat_map(|face| face.families.iter().map(|(name, _)| name.clone())).collect();
        families.sort();
        families.dedup();
        let plain =
            |f: &&String| f.contains("Sans") && !["Mono", "Narrow", "Condensed", "Light"].iter().any(|w| f.contains(w));
        let family =
            families.iter().find(|f| *f == "DejaVu Sans").or_else(|| families.iter().find(plain)).or(families.first());
        let family = family.expect("text is checked in a system font, and this system has none").clone();
        fonts.set_sans_serif_family(family);
        Rendered::render(svg, &options, scale)
    }

    fn render(svg: &str, options: &resvg::usvg::Options, scale: f32) -> Rendered {
        let tree = resvg::usvg::Tree::from_str(svg, options).expect("the SVG parses");
        let size = tree.size().to_int_size().scale_by(scale).expect("a picture of some size");
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
        Rendered(pixmap)
    }

    /// The colour of the pixel at column `x`, row `y`.
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let p = self.0.pixel(x as u32, y as u32).unwrap();
        [p.red(), p.green(), p.blue()]
    }

    /// Writes the picture as a PNG file.
    pub fn save(&self, path: &std::path::Path) {
        self.0.save_png(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// `#rrggbb` as its three channels.
pub fn rgb(hex: &str) -> [u8; 3] {
    let n = u32::from_str_radix(&hex[1..], 16).unwrap();
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}
