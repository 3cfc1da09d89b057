//! Enables, as `--cfg feature="…"`, every feature that ffi/Cargo.toml declares, so the shared
//! source compiles here exactly as in the C library's default build, without a second list.
use std::fs;

fn main() {
    let manifest = "../Cargo.toml";
    println!("cargo::rerun-if-changed={manifest}");
    let text = fs::read_to_string(manifest).expect("ffi/Cargo.toml is readable");
    let features = text.split("\n[features]\n").nth(1).unwrap_or("");
    let features = features.split("\n[").next().unwrap_or("");
    let mut names = Vec::new();
    for line in features.lines() {
        if let Some((name, _)) = line.split_once(" = ") {
            if !name.starts_with('#') && !name.starts_with(' ') && name != "default" {
                names.push(name.trim().to_string());
            }
        }
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    println!("cargo::rustc-check-cfg=cfg(feature, values({}))", quoted.join(", "));
    for name in names.iter().filter(|n| n.as_str() != "panic-link-check") {
        println!("cargo::rustc-cfg=feature=\"{name}\"");
    }
}
