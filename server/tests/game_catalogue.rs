//! Every game of the protocol's registry (`GameKind::ALL`, the one list in code) is named
//! by `qipai-server --help`, by the README and by PROTOCOL.md, and has its rules page in
//! `docs/rules/`.

use std::path::Path;
use std::process::Command;

use qipai_protocol::GameKind;

fn repository_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn names_every_game(what: &str, text: &str) {
    let text = text.to_lowercase();
    for game in GameKind::ALL {
        assert!(
            text.contains(game.name()),
            "{what} does not name {}",
            game.name()
        );
    }
}

#[test]
fn help_names_every_game() {
    let out = Command::new(env!("CARGO_BIN_EXE_qipai-server"))
        .arg("--help")
        .output()
        .expect("qipai-server --help");
    assert!(out.status.success());
    names_every_game("qipai-server --help", &String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_docs_name_every_game() {
    names_every_game("README.md", &repository_file("README.md"));
    names_every_game("PROTOCOL.md", &repository_file("PROTOCOL.md"));
    for game in GameKind::ALL {
        let page = format!("docs/rules/{}.md", game.name());
        assert!(!repository_file(&page).is_empty(), "{page} is empty");
    }
}
