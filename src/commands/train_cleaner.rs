//! `docview train-cleaner`: train the learned cleaner's block model and write it.

use anyhow::Result;
use docview::eval::blocks::{all_blocks, load_sets, train_model, write_model};

use crate::flags::TrainCleanerArgs;

/// `docview train-cleaner`.
pub fn run(args: TrainCleanerArgs) -> Result<()> {
    let params = args.train.params(args.threads)?;
    let sets = load_sets(&args.sets)?;
    let blocks = all_blocks(&sets, args.threads)?;
    let all: Vec<_> = blocks.iter().collect();
    let start = std::time::Instant::now();
    let model = train_model(&all, &params)?;
    eprintln!(
        "trained on {} in {:.1} s",
        model.trained_on,
        start.elapsed().as_secs_f64()
    );
    write_model(&model, &args.out)?;
    outln!("model written to {}", args.out.display());
    for (stage, what) in [
        (1, "block features"),
        (2, "block features and context scores"),
        (3, "the site stage: stage 2's rows and the site evidence"),
    ] {
        if stage == 3 && !model.has_site_stage() {
            continue;
        }
        outln!("stage {stage} ({what}), the 12 largest shares of its gain:");
        for (name, share) in model.importance(stage).iter().take(12) {
            outln!("  {name:<28} {share:.3}");
        }
    }
    Ok(())
}
