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
fn the_crate_readme_shows_the_fleet_example() {
    // Shown as `rust,ignore`: it needs the `valkey` feature and a server; the example itself is
    // built by `cargo test --features valkey`.
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/examples/fleet.rs")).unwrap();
    let code = &example[example.find("use seeded_backoff").unwrap()..];
    assert!(
        readme.contains(&format!("```rust,ignore\n{code}```\n")),
        "README.md has no block equal to examples/fleet.rs"
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

/// Every name the crate's README calls in its prose (`name(` or `name!(` inside a code span),
/// and every member of a path it names (`Verdict::from_reqwest`, `Verdict::Stop`), is a function,
/// macro, variant or constant of the crate, or one of the few outside names it shows with them:
/// the README cannot promise a method that does not exist.
#[test]
fn every_method_the_crate_readme_names_exists() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let mut source = String::new();
    let mut dirs = vec![std::path::PathBuf::from(format!("{root}/src"))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                source.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    // What the README calls that is not the crate's: http's and reqwest's methods on a response
    // or request, std's `Ok`, and the stand-ins for the reader's own functions.
    const OUTSIDE: [&str; 7] = [
        "Ok",
        "Some",
        "as_u16",
        "status",
        "try_clone",
        "header",
        "op",
    ];
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let defined = |name: &str| {
        let ends = |rest: &str| !rest.starts_with(is_ident);
        [format!("fn {name}"), format!("macro_rules! {name}")]
            .iter()
            .any(|def| {
                source
                    .match_indices(def.as_str())
                    .any(|(i, _)| ends(&source[i + def.len()..]))
            })
            || source.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with(&format!("{name}(")) || l.starts_with(&format!("{name} {{"))
            })
    };
    // A path's member (`Verdict::from_http`, `Verdict::Stop`, `Policy::MAX_DELAY_MS`) is also a
    // variant or an associated constant of the crate.
    let member = |name: &str| {
        defined(name)
            || source.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with(&format!("{name},")) || l.starts_with(&format!("{name} ="))
            })
            || source.contains(&format!("const {name}:"))
    };
    // Paths from these crates (and the integer types) are theirs, not this one's.
    const CRATES: [&str; 10] = [
        "u32",
        "u64",
        "core",
        "std",
        "http",
        "reqwest",
        "tower",
        "tokio",
        "retry_policies",
        "reqwest_retry",
    ];
    let mut prose = String::new();
    let mut fenced = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let mut checked = 0;
    let mut missing = Vec::new();
    for span in prose.split('`').skip(1).step_by(2) {
        let chars: Vec<char> = span.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if is_ident(chars[i]) && (i == 0 || !is_ident(chars[i - 1])) {
                let start = i;
                while i < chars.len() && is_ident(chars[i]) {
                    i += 1;
                }
                let name: String = chars[start..i].iter().collect();
                let called = chars[i..].starts_with(&['(']) || chars[i..].starts_with(&['!', '(']);
                // In `A::b`, the path's first segment, for a member named without a call.
                let mut root = start;
                while root >= 2 && chars[root - 2..root] == [':', ':'] {
                    root -= 2;
                    while root > 0 && is_ident(chars[root - 1]) {
                        root -= 1;
                    }
                }
                // A path through one of the crate's modules (`policy::DeadlineMode::Clamp`) is
                // checked from the item the module holds.
                loop {
                    let seg: String = chars[root..].iter().take_while(|&&c| is_ident(c)).collect();
                    let next = root + seg.len();
                    let is_module = source.contains(&format!("pub mod {seg};"))
                        || source.contains(&format!("pub mod {seg} {{"));
                    if next < start && is_module && !CRATES.contains(&seg.as_str()) {
                        root = next + 2;
                    } else {
                        break;
                    }
                }
                let first: String = chars[root..].iter().take_while(|&&c| is_ident(c)).collect();
                let in_path = root < start && !CRATES.contains(&first.as_str());
                if (called || in_path) && !name.starts_with(|c: char| c.is_ascii_digit()) {
                    checked += 1;
                    let known = if called {
                        defined(&name)
                    } else {
                        member(&name)
                    };
                    if !OUTSIDE.contains(&name.as_str()) && !known {
                        missing.push(name);
                    }
                }
            } else {
                i += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} names checked");
    assert!(
        missing.is_empty(),
        "README.md names what the crate does not have: {missing:?}"
    );
}

/// The crate's features as Cargo.toml declares them: the `[features]` table (but `default`) and
/// the optional dependencies no feature names with `dep:`, each of which is a feature of its own.
fn cargo_features() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let mut features = Vec::new();
    let mut table = "";
    for line in manifest.lines() {
        if line.starts_with('[') {
            table = line;
        } else if let Some((name, value)) = line.split_once(" = ") {
            let optional = table == "[dependencies]" && value.contains("optional = true");
            let implicit = optional && !manifest.contains(&format!("\"dep:{name}\""));
            // `bindings` is the project's own bindings' layer, not a feature a Rust program uses.
            let public = name != "default" && name != "bindings";
            if (table == "[features]" && public) || implicit {
                features.push(name.to_string());
            }
        }
    }
    features.sort();
    features
}

/// The backquoted names from `marker` in `readme` to the end of its sentence, outside
/// parentheses (where the crate README says what each feature adds).
fn feature_list(readme: &str, marker: &str) -> Vec<String> {
    let at = readme
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?}"));
    let sentence = &readme[at + marker.len()..];
    let end = sentence
        .match_indices('.')
        .find(|(i, _)| sentence[i + 1..].starts_with(char::is_whitespace))
        .map_or(sentence.len(), |(i, _)| i);
    let sentence = &sentence[..end];
    let mut depth = 0;
    let outside: String = sentence
        .chars()
        .filter(|&c| {
            depth += i32::from(c == '(') - i32::from(c == ')');
            depth == 0 && c != ')'
        })
        .collect();
    let mut names: Vec<String> = outside
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    names.sort();
    names
}

#[test]
fn the_readmes_list_every_feature_of_the_crate() {
    let root = env!("CARGO_MANIFEST_DIR");
    let features = cargo_features();
    assert!(features.len() >= 7, "{features:?}");
    let crate_readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let repo_readme = std::fs::read_to_string(format!("{root}/../README.md")).unwrap();
    let lists = [
        ("README.md", feature_list(&crate_readme, "\nFeatures: ")),
        (
            "../README.md",
            feature_list(&repo_readme, "core\" }`;\nfeatures "),
        ),
    ];
    for (readme, names) in lists {
        assert_eq!(
            names, features,
            "{readme} lists other features than Cargo.toml"
        );
    }
}
