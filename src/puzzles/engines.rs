//! Each family's engines as a typed enum, declared with [`engines!`]: the
//! names `--engine` takes, parsing with a helpful error, and display.

/// Declares a family's engine enum. The first variant is the default, so
/// list the fastest measured first.
///
/// The enum gets `ALL` and `NAMES` (in the declared order), `name()`,
/// `choose(Option<&str>)` (the default for `None`), `FromStr` whose error
/// lists the names, and `Display`.
macro_rules! engines {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
        $vis enum $name {
            $($(#[$variant_meta])* #[serde(rename = $text)] $variant,)+
        }

        impl $name {
            /// Every engine, the default first.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// Every engine's name, the default first.
            pub const NAMES: &'static [&'static str] = &[$($text,)+];

            /// The name `--engine` takes.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The engine named, or the default when none is.
            pub fn choose(requested: Option<&str>) -> Result<$name, $crate::puzzles::Error> {
                match requested {
                    None => Ok(Self::ALL[0]),
                    Some(name) => name.parse(),
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::puzzles::Error;

            fn from_str(text: &str) -> Result<$name, $crate::puzzles::Error> {
                Self::ALL.iter().copied().find(|e| e.name() == text).ok_or_else(|| {
                    $crate::puzzles::Error::UnknownEngine { found: text.to_string(), expected: Self::NAMES.join(", ") }
                })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
