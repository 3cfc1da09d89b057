//! One declaration per coded enum: each variant's stable number and snake_case name in a single
//! row, from which the enum, `NAMES`, `code()`, `name()`, `from_code()` and `from_name()` are
//! generated, so the four can never disagree. The bindings' tables (the C constants and name
//! functions, the npm package's tables, the CLI's choices) are these numbers and names.

/// Declares an enum from a table of `Variant = code, "name"` rows.
///
/// It generates the enum (`Clone, Copy, Debug, PartialEq, Eq, Hash` plus the attributes given),
/// `NAMES` (every name, in row order), `code()`, `name()`, `from_code()` and `from_name()`. A
/// repeated code or name is an unreachable match arm, which the lints refuse.
///
/// With `(param)` after the name, a variant may carry one `u32` field (`Google { jitter_ms } = 1,
/// "google"`), and `from_code` and `from_name` take its value as a second argument, ignored by
/// the variants without one.
macro_rules! coded_enum {
    (
        $(#[$meta:meta])*
        pub enum $ty:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $code:literal, $name:literal;
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $ty {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $ty {
            /// Every variant, in row order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The variant for a code, `None` for a number no variant has.
            pub const fn from_code(code: u8) -> Option<$ty> {
                match code {
                    $( $code => Some($ty::$variant), )+
                    _ => None,
                }
            }

            /// The variant with this name (exactly, as in [`Self::NAMES`]), if any.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $( $name => Some($ty::$variant), )+
                    _ => None,
                }
            }
        }

        coded_enum!(@common $ty { $( $variant = $code, $name; )+ });
    };
    (
        $(#[$meta:meta])*
        pub enum $ty:ident(param) {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({ $(#[$fmeta:meta])* $field:ident })? = $code:literal, $name:literal;
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $ty {
            $( $(#[$vmeta])* $variant $({ $(#[$fmeta])* $field: u32 })?, )+
        }

        impl $ty {
            /// The variant for a code with its parameter (ignored by a variant without one),
            /// `None` for a number no variant has.
            pub const fn from_code(code: u8, param: u32) -> Option<$ty> {
                // Variants without a field leave the parameter unused.
                let _ = param;
                match code {
                    $( $code => Some($ty::$variant $({ $field: param })?), )+
                    _ => None,
                }
            }

            /// The variant with this name (exactly, as in [`Self::NAMES`]) and parameter, if any.
            pub fn from_name(name: &str, param: u32) -> Option<$ty> {
                let _ = param;
                match name {
                    $( $name => Some($ty::$variant $({ $field: param })?), )+
                    _ => None,
                }
            }
        }

        coded_enum!(@common $ty { $( $variant = $code, $name; )+ });
    };
    (@common $ty:ident { $( $variant:ident = $code:literal, $name:literal; )+ }) => {
        impl $ty {
            /// Every variant's snake_case name, in row order: the names the CLI and the bindings
            /// accept.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// The stable number the C ABI, snapshots and the npm package carry (SPEC.md).
            pub const fn code(self) -> u8 {
                match self {
                    $( $ty::$variant { .. } => $code, )+
                }
            }

            /// The snake_case name, as in [`Self::NAMES`], vectors and the bindings.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $ty::$variant { .. } => $name, )+
                }
            }
        }
    };
}

pub(crate) use coded_enum;
