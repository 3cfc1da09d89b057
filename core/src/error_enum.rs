//! One declaration per error enum: its variants, their snake_case names and messages, and the
//! `Display` and `core::error::Error` impls, all from a single table.

/// Declares a field-less error enum from a table of `Variant => "name", "message"` rows.
///
/// It generates the enum (`Clone, Copy, Debug, PartialEq, Eq, Hash`, `#[non_exhaustive]`),
/// `ALL` (every variant in declaration order), `name()`, `message()`, `Display` (the message) and
/// `core::error::Error`, so `?` into `Box<dyn Error>` works with or without `std`. A new variant is
/// one new row.
macro_rules! error_enum {
    (
        $(#[$meta:meta])*
        pub enum $ty:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident => $name:literal, $message:literal;
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $ty {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $ty {
            /// Every variant, in declaration order (bindings pass an error as its index here).
            pub const ALL: [$ty; [$(stringify!($variant)),+].len()] = [$($ty::$variant),+];

            /// The snake_case name used in vectors and by the bindings.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $ty::$variant => $name, )+
                }
            }

            /// A static message naming what is wrong and what is allowed.
            pub const fn message(self) -> &'static str {
                match self {
                    $( $ty::$variant => $message, )+
                }
            }
        }

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.message())
            }
        }

        impl core::error::Error for $ty {}
    };
}

pub(crate) use error_enum;
