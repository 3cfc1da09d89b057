//! The crate's README.md and the repository's: their Rust blocks run as doc tests (see
//! `CrateReadmeDoctests` in lib.rs); this checks that the request with retries the crate's README
//! shows is exactly the program `cargo run --example quick_start` runs, that the schedule printer
//! comes first (the packaging test runs it from the crate archive), and that each block is a
//! whole program or items.

fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```rust") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_crate_readme_shows_the_quick_start_example() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/examples/quick_start.rs")).unwrap();
    let blocks = rust_blocks(&readme);
    assert!(blocks.len() >= 5, "README has {} Rust blocks", blocks.len());
    assert!(
        blocks[0].contains("while let Step::Retry"),
        "the first block prints a schedule"
    );
    assert!(
        blocks.contains(&example),
        "README.md has no block equal to examples/quick_start.rs"
    );
}

#[test]
fn the_repository_readme_shows_the_crates_first_program() {
    // The packaging test runs the crate README's first block and checks its output against the
    // model; the repository README's Rust quick start is that same program.
    let root = env!("CARGO_MANIFEST_DIR");
    let crate_readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let repo_readme = std::fs::read_to_string(format!("{root}/../README.md")).unwrap();
    assert_eq!(rust_blocks(&repo_readme), rust_blocks(&crate_readme)[..1]);
}

#[test]
fn every_readme_block_starts_with_its_imports() {
    let root = env!("CARGO_MANIFEST_DIR");
    for path in [format!("{root}/README.md"), format!("{root}/../README.md")] {
        let readme = std::fs::read_to_string(&path).unwrap();
        // As a new crate's main.rs or lib.rs takes them.
        for block in rust_blocks(&readme) {
            assert!(
                block.starts_with("use "),
                "{path}: a block starts with its imports:\n{block}"
            );
        }
    }
}

#[test]
fn the_repository_readme_is_a_short_entry() {
    // The full guide of each audience lives in its package's README; the entry stays short.
    let root = env!("CARGO_MANIFEST_DIR");
    let lines = std::fs::read_to_string(format!("{root}/../README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(lines <= 200, "README.md has {lines} lines, over 200");
}
