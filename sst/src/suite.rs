//! A set of test files (from files and directories) with the contexts of
//! their directories, run in parallel.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::context::{parent_dir, DirContext};
use crate::error::SstError;
use crate::moo::is_moo_name;
use crate::pool::run_in_order;
use crate::report::FileResult;
use crate::rules::RunOptions;
use crate::runner::run_file_with;
use crate::vectors::is_vector_name;

/// A set of test files with the contexts of their directories.
#[derive(Debug, Default)]
pub struct Suite {
    files: Vec<PathBuf>,
    file_ctx: Vec<usize>,
    contexts: Vec<DirContext>,
}

impl Suite {
    /// Expands `paths` (files, or directories whose `*.MOO.gz` / `*.MOO`
    /// files are taken in name order) and loads each directory's
    /// `metadata.json` and `revocation_list.txt`. Fails on a missing path, a
    /// directory without test files, or bad metadata.
    pub fn open(paths: &[PathBuf]) -> Result<Suite, SstError> {
        let mut suite = Suite::default();
        let mut ctx_by_dir: HashMap<PathBuf, usize> = HashMap::new();
        let mut add = |suite: &mut Suite, file: PathBuf, dir: PathBuf| -> Result<(), SstError> {
            let ci = match ctx_by_dir.get(&dir) {
                Some(&i) => i,
                None => {
                    let ctx = DirContext::load(&dir)?;
                    suite.contexts.push(ctx);
                    ctx_by_dir.insert(dir, suite.contexts.len() - 1);
                    suite.contexts.len() - 1
                }
            };
            suite.files.push(file);
            suite.file_ctx.push(ci);
            Ok(())
        };
        for p in paths {
            let meta = std::fs::metadata(p)
                .map_err(|e| SstError::input(p, format!("cannot open: {e}")))?;
            if meta.is_dir() {
                let rd = std::fs::read_dir(p)
                    .map_err(|e| SstError::input(p, format!("cannot list directory: {e}")))?;
                let mut names = Vec::new();
                for entry in rd {
                    let entry = entry
                        .map_err(|e| SstError::input(p, format!("cannot list directory: {e}")))?;
                    let name = entry.file_name();
                    if let Some(n) = name.to_str() {
                        if (is_moo_name(n) || is_vector_name(n)) && entry.path().is_file() {
                            names.push(n.to_string());
                        }
                    }
                }
                if names.is_empty() {
                    return Err(SstError::input(
                        p,
                        "no test files here (*.MOO.gz, *.MOO or *.json.gz)",
                    ));
                }
                names.sort();
                for n in names {
                    add(&mut suite, p.join(n), p.clone())?;
                }
            } else {
                add(&mut suite, p.clone(), parent_dir(p))?;
            }
        }
        Ok(suite)
    }

    /// The test files, in run order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The directory context of file `i`.
    pub fn context(&self, i: usize) -> &DirContext {
        &self.contexts[self.file_ctx[i]]
    }

    /// Runs every file on `jobs` threads (at least 1). `on_result` gets each
    /// file's result in file order, on the calling thread, as soon as it and
    /// all earlier files are done; returning `false` stops the run (files
    /// already started still finish, but are not reported).
    pub fn run(
        &self,
        opts: &RunOptions,
        jobs: usize,
        on_result: impl FnMut(usize, Result<FileResult, SstError>) -> bool,
    ) {
        run_in_order(
            self.files.len(),
            jobs,
            |runner, i| run_file_with(runner, &self.files[i], self.context(i), opts),
            on_result,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_errors_name_the_path() {
        let e = Suite::open(&[PathBuf::from("/nonexistent/dir/00.MOO.gz")]).unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/dir/00.MOO.gz: "),
            "{e}"
        );
    }
}
