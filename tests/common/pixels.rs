//! SVG pictures rendered with resvg, for the suites that read a drawing's
//! pixels at known places (each suite adds its own cell geometry).

/// A rendered picture.
pub struct Rendered(pub resvg::tiny_skia::Pixmap);

impl Rendered {
    /// `svg` rendered at its own size; panics if it does not parse.
    pub fn of(svg: &str) -> Rendered {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Rendered(pixmap)
    }

    /// The colour of the pixel at column `x`, row `y`.
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let p = self.0.pixel(x as u32, y as u32).unwrap();
        [p.red(), p.green(), p.blue()]
    }
}

/// `#rrggbb` as its three channels.
pub fn rgb(hex: &str) -> [u8; 3] {
    let n = u32::from_str_radix(&hex[1..], 16).unwrap();
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}
