//! `legion migrate --from legion.db --to postgres://...`: moves a site's
//! games to another database and checks the copy (docs/HOSTING.md).

use clap::Args;

use crate::Failure;
use crate::progress::Progress;

#[derive(Args)]
pub struct MigrateArgs {
    /// The database to copy from: a SQLite file or a PostgreSQL URL.
    #[arg(long)]
    pub from: String,
    /// The database to copy into (created and migrated if needed).
    #[arg(long)]
    pub to: String,
    /// Copy the games even though the source holds accounts, studies or
    /// other players' data that `migrate` does not copy yet (left behind).
    #[arg(long)]
    pub games_only: bool,
}

pub fn run(a: MigrateArgs) -> Result<(), Failure> {
    if !a.from.contains("://") && !std::path::Path::new(&a.from).exists() {
        return Err(Failure(format!("no database at '{}'", a.from)));
    }
    let runtime = legion_server::runtime().map_err(|e| Failure(format!("cannot start: {e}")))?;
    let report = runtime.block_on(async {
        let from = legion_server::store::Store::open(&a.from).await?;
        // Nothing is left behind silently: players' data stops the copy
        // unless the host asks for the games alone.
        let left = legion_server::store::migrate::left_behind(&from).await?;
        if !left.is_empty() {
            let list = left
                .iter()
                .map(|(what, n)| format!("{what}: {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            if !a.games_only {
                return Err(Failure(format!(
                    "'{}' holds what `legion migrate` does not copy yet: {list}. \
                     It copies games only; run again with --games-only to copy them \
                     and leave the rest behind (docs/HOSTING.md)",
                    a.from
                )));
            }
            eprintln!("--games-only: left behind in '{}': {list}", a.from);
        }
        let to = legion_server::store::Store::open(&a.to).await?;
        let bar = Progress::new(
            0,
            "{msg:>5} [{bar:30}] {pos}/{len} games, {eta} left",
            "games",
        )?;
        let r = legion_server::store::migrate::copy(&from, &to, |phase, done, total| {
            bar.set_message(phase.to_string());
            bar.set_length(total);
            bar.set_position(done);
        })
        .await;
        bar.finish_and_clear();
        let report = r.map_err(|e| Failure(e.to_string()))?;
        bar.log_end();
        Ok(report)
    })?;
    println!(
        "{} games ({} moves, {} analyses): {} copied, {} already there; every game checked",
        report.games, report.moves, report.analyses, report.copied, report.present
    );
    Ok(())
}
