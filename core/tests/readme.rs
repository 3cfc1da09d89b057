//! README.md's Rust blocks run as doc tests (see `ReadmeDoctests` in lib.rs); this checks that the
//! quick start it shows is exactly the program `cargo run --example quick_start` runs.

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
fn the_readme_quick_start_is_the_quick_start_example() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/core/examples/quick_start.rs")).unwrap();
    let blocks = rust_blocks(&readme);
    assert!(blocks.len() >= 4, "README has {} Rust blocks", blocks.len());
    assert_eq!(
        blocks[0], example,
        "README's first Rust block differs from the example"
    );
    // Every block is a whole program or items, as a new crate's main.rs or lib.rs takes them.
    for block in &blocks {
        assert!(
            block.starts_with("use "),
            "a block starts with its imports:\n{block}"
        );
    }
}
