//! With the `cffi-header` feature (the Python package's build, python/pyproject.toml), writes
//! `<target dir>/header.h`: ffi/include/seeded_backoff.h as cffi's `cdef()` reads it, which is
//! where maturin's cffi mode looks for the declarations before it would run cbindgen itself (a
//! macro expansion that needs a nightly compiler). Generated on every build into whatever target
//! directory Cargo uses (CARGO_TARGET_DIR, `--target-dir` or the default), so an sdist builds with
//! stable Rust and `cargo clean` removes nothing committed.
use std::path::{Path, PathBuf};
use std::{env, fs};

const HEADER: &str = "include/seeded_backoff.h";

fn main() {
    println!("cargo::rerun-if-changed={HEADER}");
    if env::var_os("CARGO_FEATURE_CFFI_HEADER").is_none() {
        return;
    }
    let text = fs::read_to_string(HEADER).expect("include/seeded_backoff.h is readable");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("Cargo sets OUT_DIR"));
    let target_dir = target_dir(&out).expect("OUT_DIR is inside a Cargo target directory");
    let header = target_dir.join("header.h");
    let declarations = cffi_declarations(&text);
    // Rewritten only when it changes, so that concurrent builds read a whole file.
    if fs::read_to_string(&header).ok().as_deref() != Some(declarations.as_str()) {
        fs::write(&header, declarations).expect("the target directory is writable");
    }
}

/// The target directory, from Cargo's layout of OUT_DIR:
/// `<target dir>/[<target triple>/]<profile>/build/<package>-<hash>/out`.
fn target_dir(out: &Path) -> Option<&Path> {
    let above_profile = out.ancestors().nth(4)?;
    let triple = env::var("TARGET").ok()?;
    if above_profile.file_name()? == triple.as_str() {
        above_profile.parent()
    } else {
        Some(above_profile)
    }
}

/// The header without what cffi cannot read: the include guard and #include lines, the C++-only
/// blocks (`#ifdef __cplusplus` .. `#endif`). `#define NAME <integer>` lines stay, and
/// `#define NAME OTHER` (a constant named after one defined above) gets OTHER's integer; any other
/// #define is an error, since its constant would vanish from the Python package.
fn cffi_declarations(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut integers: Vec<(String, String)> = Vec::new();
    let mut skipping = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("#ifdef __cplusplus") {
            skipping = true;
        } else if skipping {
            skipping = !trimmed.starts_with("#endif");
        } else if trimmed.starts_with('#') {
            let words: Vec<&str> = trimmed.split_whitespace().collect();
            let integer = |w: &str| {
                w.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            };
            if words[0] == "#define" && words.len() == 3 && words[2] == "UINT64_MAX" {
                // cbindgen writes u64::MAX as the C macro; cffi reads only integer literals.
                out.push(format!("#define {} {}", words[1], u64::MAX));
            } else if words[0] == "#define" && words.len() > 2 {
                let value = integers
                    .iter()
                    .find(|(name, _)| words.len() == 3 && name == words[2])
                    .map(|(_, value)| value.clone());
                let value = value.unwrap_or_else(|| {
                    assert!(
                        words.len() == 3 && integer(words[2]),
                        "not an integer literal, cffi would drop it: {trimmed}"
                    );
                    words[2].to_owned()
                });
                out.push(format!("#define {} {}", words[1], value));
                integers.push((words[1].to_owned(), value));
            }
        } else {
            out.push(line.to_owned());
        }
    }
    format!(
        "/* Derived from ffi/include/seeded_backoff.h by ffi/build.rs. Do not edit. */\n{}\n",
        out.join("\n").trim()
    )
}
