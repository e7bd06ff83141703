//! Writing to standard output: `out!` and `outln!`, which give a closed pipe back as an error
//! instead of panicking as `print!` does.

use std::io::Write;

/// Writes to standard output. Unlike `print!`, which panics, a closed pipe (`docview ... |
/// head`) comes back as an error, which `main` takes for the normal end of the output.
pub fn write_stdout(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    std::io::stdout().lock().write_fmt(args)
}

/// `print!` that returns a closed pipe as an error (see [`write_stdout`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_stdout(format_args!($($arg)*))?
    };
}

/// `println!` that returns a closed pipe as an error (see [`write_stdout`]).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}
