//! Lists every file under `../web` for `src/gateway/static_files.rs` to embed with `include_bytes!`,
//! so the binary serves the page with no files beside it and no extra setup step. Text files
//! are also gzipped here, once, at the best level (into `OUT_DIR/gzip/`): the server sends
//! that copy to browsers that accept it, with no compression work per request.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &mut files);
    let mut files: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|file| {
            let url = file
                .strip_prefix(&web)
                .expect("under web/")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (format!("/{url}"), file)
        })
        .collect();
    // Sorted as strings, the order `static_files::lookup` searches in.
    files.sort();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let gzip_dir = out.join("gzip");
    std::fs::create_dir_all(&gzip_dir).expect("OUT_DIR is writable");
    let mut table = String::from("&[\n");
    for (index, (url, file)) in files.iter().enumerate() {
        let bytes = std::fs::read(file).expect("readable file under web/");
        let absolute = file.canonicalize().expect("a real path");
        let gzip = gzipped(&bytes, url).map_or_else(
            || "None".to_owned(),
            |packed| {
                let path = gzip_dir.join(format!("{index}.gz"));
                std::fs::write(&path, packed).expect("OUT_DIR is writable");
                format!("Some(include_bytes!({:?}))", path.display().to_string())
            },
        );
        writeln!(
            table,
            "    Embedded {{ path: {:?}, body: include_bytes!({:?}), gzip: {gzip}, etag: \"\\\"{:016x}\\\"\" }},",
            url,
            absolute.display().to_string(),
            fnv1a(&bytes),
        )
        .expect("writing to a String");
    }
    table.push(']');
    std::fs::write(out.join("web_files.rs"), table).expect("OUT_DIR is writable");
}

/// Every regular file below `dir`, skipping dot files (editor swap files and the like).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect(&path, files);
        } else if path.is_file() {
            files.push(path);
        }
    }
}

/// The gzip of a text file (scripts, styles, the page, SVG…) when it is smaller; `None`
/// for what is already compressed (images) or gains nothing.
fn gzipped(bytes: &[u8], url: &str) -> Option<Vec<u8>> {
    use std::io::Write as _;
    let text = [
        ".html",
        ".js",
        ".mjs",
        ".css",
        ".svg",
        ".json",
        ".md",
        ".txt",
        ".webmanifest",
    ];
    if !text.iter().any(|ext| url.ends_with(ext)) {
        return None;
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("writing to a Vec");
    let packed = encoder.finish().expect("writing to a Vec");
    (packed.len() < bytes.len()).then_some(packed)
}

/// A content hash for the `ETag`: 64-bit FNV-1a, enough to tell versions of a file apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
