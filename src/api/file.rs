//! The API's own seed file in the data directory (`seeds::API_FILE`):
//! lines are appended synced before a request is answered, so what the API
//! took survives a restart and `kill -9`; the crawl reads it beside the
//! other seed files when told it changed.

use std::io::Write;
use std::path::Path;

use axum::http::StatusCode;

use super::state::{Api, Refusal};

/// Appends `text` (whole lines) to the API's seed file, synced, and tells
/// the crawl to read it.
pub(super) async fn append(api: &Api, text: &str) -> Result<(), Refusal> {
    if text.is_empty() {
        return Ok(());
    }
    let file = api.file.lock().await;
    // The crawl reads a seed file up to this size: lines past it would be
    // taken and never read.
    let max = trawl_crawl::MAX_SEED_FILE_BYTES;
    let size = std::fs::metadata(&*file).map_or(0, |m| m.len());
    if size + text.len() as u64 > max {
        return Err(Refusal(
            StatusCode::INSUFFICIENT_STORAGE,
            format!(
                "{} would pass {max} bytes, the most of a seed file the crawl reads",
                file.display()
            ),
        ));
    }
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&*file)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_data()
        });
    if let Err(e) = written {
        tracing::warn!(file = %file.display(), error = %e, "the API's seed file");
        return Err(Refusal(
            StatusCode::INSUFFICIENT_STORAGE,
            format!("cannot write {}: {e}", file.display()),
        ));
    }
    api.observer.seeds_changed();
    Ok(())
}

/// The API's seed file as the crawl reads it (at most a seed file's
/// size); none yet: empty.
pub(super) fn read(file: &Path) -> String {
    trawl_crawl::read_capped(file, trawl_crawl::MAX_SEED_FILE_BYTES)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// Replaces the file's text with `text` (written aside, synced, renamed
/// over it) and tells the crawl.
pub(super) fn replace(api: &Api, file: &Path, text: &str) -> Result<(), Refusal> {
    let tmp = file.with_extension("txt.new");
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, file));
    if let Err(e) = written {
        return Err(Refusal(
            StatusCode::INSUFFICIENT_STORAGE,
            format!("cannot write {}: {e}", file.display()),
        ));
    }
    api.observer.seeds_changed();
    Ok(())
}
