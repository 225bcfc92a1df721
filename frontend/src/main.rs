//! The `tandem` binary: the command line of the `tandem` library
//! ([`tandem::cli`]: one file per subcommand).

fn main() -> std::process::ExitCode {
    tandem::cli::main()
}
