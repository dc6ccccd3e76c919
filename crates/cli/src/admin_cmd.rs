//! `legion admin`: a host's account work on the site's database
//! (docs/HOSTING.md, "Accounts"): the newest accounts, disabling or
//! enabling one, ending its sessions. Runs beside a live server: the
//! database is the one place every server reads accounts from.

use clap::{Args, Subcommand};

use crate::Failure;
use legion_server::store::Store;

#[derive(Args)]
pub struct AdminArgs {
    /// The site's database: a SQLite file or a PostgreSQL URL.
    #[arg(long, default_value = "legion.db")]
    pub db: String,
    #[command(subcommand)]
    pub what: AdminCommand,
}

#[derive(Subcommand)]
pub enum AdminCommand {
    /// The newest accounts, newest first: id, name, created (UTC), state.
    Accounts {
        #[arg(long, default_value_t = 20)]
        limit: i64,
    },
    /// Disables an account: it cannot sign in, and its sessions end.
    Disable { username: String },
    /// Lets a disabled account sign in again.
    Enable { username: String },
    /// Ends every session of an account (it signs in again).
    EndSessions { username: String },
}

pub fn run(a: AdminArgs) -> Result<(), Failure> {
    if !a.db.contains("://") && !std::path::Path::new(&a.db).exists() {
        return Err(Failure(format!("no database at '{}'", a.db)));
    }
    let runtime = legion_server::runtime().map_err(|e| Failure(format!("cannot start: {e}")))?;
    runtime.block_on(async {
        let store = Store::open_beside_server(&a.db).await?;
        let find = |name: String| {
            let store = &store;
            async move {
                store
                    .account_by_name(&name.to_ascii_lowercase())
                    .await?
                    .ok_or_else(|| Failure(format!("no account '{name}'")))
            }
        };
        match a.what {
            AdminCommand::Accounts { limit } => {
                for acc in store.newest_accounts(limit.clamp(1, 10_000)).await? {
                    let state = if acc.deleted {
                        "deleted"
                    } else if acc.disabled {
                        "disabled"
                    } else {
                        "active"
                    };
                    println!(
                        "{}\t{}\t{}\t{state}",
                        acc.id.0,
                        acc.username,
                        legion_server::games::record::date_of(acc.created_ms)
                    );
                }
            }
            AdminCommand::Disable { username } => {
                let acc = find(username).await?;
                store.set_disabled(acc.id, true).await?;
                let ended = store.delete_sessions(acc.id).await?;
                println!("{} disabled; {ended} sessions ended", acc.username);
            }
            AdminCommand::Enable { username } => {
                let acc = find(username).await?;
                store.set_disabled(acc.id, false).await?;
                println!("{} enabled", acc.username);
            }
            AdminCommand::EndSessions { username } => {
                let acc = find(username).await?;
                let ended = store.delete_sessions(acc.id).await?;
                println!("{}: {ended} sessions ended", acc.username);
            }
        }
        Ok(())
    })
}
