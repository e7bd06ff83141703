//! `docview blocks`: the labelled blocks of labelled sets as CSV.

use anyhow::Result;
use docview::eval::blocks::{all_blocks, load_sets, write_blocks_csv};
use docview::output::write_atomically;

use crate::flags::BlocksArgs;

/// `docview blocks`.
pub fn run(args: BlocksArgs) -> Result<()> {
    let sets = load_sets(&args.sets)?;
    let blocks = all_blocks(&sets, args.threads)?;
    write_atomically(&args.out, |out| write_blocks_csv(&blocks, out))?;
    let rows: usize = blocks.iter().map(|b| b.features.len()).sum();
    eprintln!(
        "{rows} blocks of {} pages written to {}",
        blocks.len(),
        args.out.display()
    );
    Ok(())
}
