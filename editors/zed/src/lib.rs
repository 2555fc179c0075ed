//! Starts `forgec lsp` (from the worktree shell's PATH) for JSON, YAML and TOML files; the server
//! answers only for the files forgec reads. See docs/editors.md.

use zed_extension_api::{self as zed, LanguageServerId, Result};

struct Forgec;

impl zed::Extension for Forgec {
    fn new() -> Self {
        Forgec
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let path = worktree
            .which("forgec")
            .ok_or_else(|| "forgec is not on PATH: pip install 'forgec[lsp]'".to_string())?;
        Ok(zed::Command {
            command: path,
            args: vec!["lsp".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Forgec);
