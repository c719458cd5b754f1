//! The `trawl` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

fn main() {
    let cli = trawl::cli::Cli::parse();
    let code = match trawl::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("trawl: error: {e:#}");
            2
        }
    };
    std::process::exit(code);
}
