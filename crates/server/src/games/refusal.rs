//! Why the game core does not do what it was asked, as data. The core
//! knows nothing of HTTP: the edge turns a `Refusal` into a status and
//! words (`http::error`), a socket into its error message.

use legion_rules::MoveParseError;

use crate::engine::pool::PoolError;
use crate::games::model::Side;
use crate::store::StoreError;

/// An action the game's state or the asker's seat does not allow.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// No game has this id (or the text is no id at all).
    #[error("no game '{0}'")]
    NoGame(String),
    #[error("the game is over")]
    GameOver,
    #[error("the game was aborted")]
    GameAborted,
    #[error("the game has not started")]
    NotStarted,
    /// The action needs a seat's token, and none was given that opens one.
    #[error("this needs a seat of the game")]
    NeedsSeat,
    #[error("only a player of the game may move")]
    OnlySeatedMove,
    #[error("it is {0}'s turn")]
    NotYourTurn(Side),
    #[error("the engine is thinking")]
    EngineThinking,
    /// A move for another ply than the next one.
    #[error("move {ply} was sent but {played} moves have been played")]
    StaleMove { played: usize, ply: usize },
    /// Another request (on this server or another one) changed the game
    /// first; reading it again and retrying may succeed.
    #[error("the game changed meanwhile")]
    Changed,
    /// The game changed while the engine weighed a draw offer.
    #[error("the game changed while the engine considered the offer")]
    ChangedWhileThinking,
    #[error("the move cannot be played: {0}")]
    BadMove(MoveParseError),
    #[error("friend games take back by asking (takeback)")]
    AskTakeback,
    #[error("only friend games ask for takebacks; use undo")]
    UseUndo,
    #[error("there is no move to undo")]
    NothingToUndo,
    #[error("there is no move of yours to take back")]
    NoMoveOfYours,
    #[error("there is no draw offer to accept")]
    NoDrawToAccept,
    #[error("there is no draw offer to decline")]
    NoDrawToDecline,
    #[error("there is no takeback request to accept")]
    NoTakebackToAccept,
    #[error("there is no takeback request to decline")]
    NoTakebackToDecline,
    #[error("a game is aborted only before both sides have moved")]
    TooLateToAbort,
    #[error("a rematch is offered after the game")]
    RematchAfterEnd,
    #[error("the rematch has been made")]
    RematchExists,
    #[error("there is no rematch offer")]
    NoRematchOffer,
    #[error("the game has no invite")]
    NoInvite,
    #[error("wrong invite")]
    WrongInvite,
    #[error("the invite has been used")]
    InviteUsed,
    /// An invite claimed with a token that already holds a seat.
    #[error("you already hold a seat of this game")]
    AlreadySeated,
    #[error("a game is analysed once it has ended")]
    AnalysisAfterEnd,
    /// The analysis's search was stopped before it completed a depth: it
    /// has no score to give.
    #[error("the engine's search was stopped before it found anything")]
    AnalysisCut,
    /// The engine's queue is full.
    #[error("the engine is busy")]
    EngineBusy,
    /// This client already has this many searches waiting or running.
    #[error("{0} engine searches of yours are already waiting")]
    EngineTooMany(usize),
}

/// Anything the core's actions may end in besides success.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Store(StoreError),
    /// A failure of ours: a stored game that cannot be rebuilt, a task
    /// that died.
    #[error("{0}")]
    Internal(String),
}

pub type CoreResult<T> = Result<T, CoreError>;

impl CoreError {
    pub fn internal(e: impl std::fmt::Display) -> CoreError {
        CoreError::Internal(e.to_string())
    }

    /// Whether another writer came first (the action may be tried again
    /// on the game read afresh).
    pub fn is_stale(&self) -> bool {
        matches!(
            self,
            CoreError::Store(StoreError::Stale(_)) | CoreError::Refused(Refusal::Changed)
        )
    }

    /// Whether the database cannot be reached or written at the moment.
    pub fn unavailable(&self) -> bool {
        matches!(self, CoreError::Store(e) if e.unavailable())
    }
}

impl From<StoreError> for CoreError {
    fn from(e: StoreError) -> CoreError {
        match e {
            StoreError::Stale(_) => CoreError::Refused(Refusal::Changed),
            e => CoreError::Store(e),
        }
    }
}

impl From<PoolError> for CoreError {
    fn from(e: PoolError) -> CoreError {
        match e {
            PoolError::Full => Refusal::EngineBusy.into(),
            PoolError::TooMany(n) => Refusal::EngineTooMany(n).into(),
            PoolError::Stopped => CoreError::internal("an engine search ended without an answer"),
        }
    }
}
