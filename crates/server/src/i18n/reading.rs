//! Why a position (LFEN, 6.2), a game record (6.5) or a typed move (6.3,
//! 6.4) could not be read, in words of the translation files: one key a
//! kind of error, its data as arguments, its rule kept as a number. The
//! rules library's own messages stay English (the command line's).

use legion_rules::record::RecordError;
use legion_rules::{Color, LfenError, MoveParseError, Piece};

use crate::i18n::{self, Arg, Text};

fn side(c: Color) -> Arg {
    Arg::Side(c.into())
}

fn piece(p: Piece) -> Arg {
    Arg::Piece(format!("{}{}", p.color.char(), p.role.upper_char()))
}

/// The words of an LFEN error, without its rule.
pub fn lfen_words(e: &LfenError) -> Text {
    use LfenError::*;
    let t = Text::new;
    match e {
        FieldCount(n) => t("lfen.field_count").arg("count", n),
        RankCount(n) => t("lfen.rank_count").arg("count", n),
        RankLength { rank, squares } => t("lfen.rank_length")
            .arg("rank", rank)
            .arg("squares", squares),
        UnknownLetter { rank, letter } => t("lfen.unknown_letter")
            .arg("rank", rank)
            .arg("letter", letter),
        MalformedConstruct { rank } => t("lfen.malformed_construct").arg("rank", rank),
        CaptorNotChess { square, letter } => t("lfen.captor_not_chess")
            .arg("square", square)
            .arg("letter", letter),
        BadPrisoner { square, letter } => t("lfen.bad_prisoner")
            .arg("square", square)
            .arg("letter", letter),
        LegionOnLightSquare { piece: p, square } => t("lfen.legion_on_light_square")
            .with("piece", piece(*p))
            .arg("square", square),
        ManOnFarRank { color, square } => t("lfen.man_on_far_rank")
            .with("piece", piece(Piece::new(*color, legion_rules::Role::Man)))
            .arg("square", square),
        TooManyKings(c) => t("lfen.too_many_kings").with("side", side(*c)),
        BadTurn(s) => t("lfen.bad_turn").arg("text", s),
        BadCastling(s) => t("lfen.bad_castling").arg("text", s),
        CastlingWithoutPieces {
            right,
            color,
            king,
            rook,
        } => t("lfen.castling_without_pieces")
            .arg("right", right)
            .with("side", side(*color))
            .arg("king", king)
            .arg("rook", rook),
        BadHalfmoveClock(s) => t("lfen.bad_halfmove_clock").arg("text", s),
        BadFullmoveNumber(s) => t("lfen.bad_fullmove_number").arg("text", s),
        WaitingSideInCheck(c) => t("lfen.waiting_side_in_check").with("side", side(*c)),
    }
}

/// An LFEN error with its rule: "6.2: ...".
pub fn lfen(e: &LfenError) -> Text {
    i18n::cited(e.rule(), lfen_words(e))
}

/// A typed move that cannot be read or played, with its rule.
pub fn typed_move(e: &MoveParseError) -> Text {
    let words = match e {
        MoveParseError::Illegal(i) => {
            return Text::new("illegal.with_rule")
                .with("illegal", Arg::Illegal(Box::new(i.clone())));
        }
        MoveParseError::Syntax(s) => Text::new("move.syntax").arg("text", s),
        MoveParseError::HumanSyntax(s) => Text::new("move.human_syntax").arg("text", s),
        MoveParseError::Ambiguous { text, options } => Text::new("move.ambiguous")
            .arg("text", text)
            .with("options", Arg::List(options.clone())),
    };
    i18n::cited(e.rule(), words)
}

/// The words of a record error, without its rule.
pub fn record_words(e: &RecordError) -> Text {
    let t = Text::new;
    match e {
        RecordError::BadTag { line } => t("record.bad_tag").arg("line", line),
        RecordError::BadFen(l) => t("record.bad_fen").with("error", Arg::Words(Box::new(lfen(l)))),
        RecordError::UnknownRules(name) => t("record.unknown_rules").arg("name", name),
        RecordError::UnclosedComment => t("record.unclosed_comment"),
        RecordError::BadMove {
            number,
            dots,
            text,
            error,
        } => t("record.bad_move")
            .arg("number", number)
            .arg("dots", dots)
            .arg("text", text)
            .with("error", Arg::Words(Box::new(typed_move(error)))),
        RecordError::MoveAfterEnd {
            number,
            dots,
            text,
            outcome,
        } => t("record.move_after_end")
            .arg("number", number)
            .arg("dots", dots)
            .arg("text", text)
            .with("outcome", Arg::Words(Box::new(i18n::outcome(*outcome)))),
        RecordError::AfterResult { text, result } => t("record.after_result")
            .arg("text", text)
            .arg("result", result),
        RecordError::Unexpected(s) => t("record.unexpected").arg("text", s),
    }
}

/// A record error with its rule: "6.5: ...".
pub fn record(e: &RecordError) -> Text {
    i18n::cited(e.rule(), record_words(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use legion_rules::{Position, Record, Rules};

    fn lfen_error(text: &str) -> LfenError {
        Position::from_lfen(text, Rules::DEFAULT).unwrap_err()
    }

    const BAD_LFENS: [&str; 16] = [
        "8/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8 w - 0 1",
        "45/8/8/8/8/8/8/8 w - 0 1",
        "x7/8/8/8/8/8/8/8 w - 0 1",
        "[Q/8/8/8/8/8/8/8 w - 0 1",
        "[Mm]7/8/8/8/8/8/8/8 w - 0 1",
        "1[QM]6/8/8/8/8/8/8/8 w - 0 1",
        "8/8/8/8/8/8/8/1M6 w - 0 1",
        "1M6/8/8/8/8/8/8/8 w - 0 1",
        "8/8/8/8/8/8/8/KK6 w - 0 1",
        "8/8/8/8/8/8/8/8 x - 0 1",
        "8/8/8/8/8/8/8/8 w QK 0 1",
        "8/8/8/8/8/8/8/8 w K 0 1",
        "8/8/8/8/8/8/8/8 w - x 1",
        "8/8/8/8/8/8/8/8 w - 0 0",
        "3k4/3Q4/8/8/8/8/8/4K3 w - 0 1",
    ];

    #[test]
    fn every_lfen_error_has_its_rule_and_words() {
        let mut keys = std::collections::BTreeSet::new();
        for text in BAD_LFENS {
            let e = lfen_error(text);
            let english = e.to_string();
            // The rule is the one the rules library's message cites.
            assert!(
                english.starts_with(&format!("{}: ", e.rule())),
                "{text}: {english}"
            );
            let en = lfen(&e).render(Lang::En);
            let ru = lfen(&e).render(Lang::Ru);
            assert_eq!(en, english, "{text}");
            assert!(ru.starts_with(&format!("{}: ", e.rule())), "{ru}");
            assert_ne!(ru, en);
            keys.insert(lfen_words(&e).key);
        }
        assert_eq!(keys.len(), BAD_LFENS.len(), "one key a kind: {keys:?}");
    }

    #[test]
    fn every_record_error_has_its_words() {
        let records = [
            "[Event x]\n1. c3-d4 *",
            "[FEN \"8/8 w\"]\n*",
            "[Rules \"fast\"]\n*",
            "1. c3-d4 { never closed",
            "1. c3-c4 *",
            "1. zz *",
            "1. c3-d4 ) *",
            "1. c3-d4 1-0 f6-e5",
        ];
        for text in records {
            let e = Record::parse(text).unwrap_err();
            let en = record(&e).render(Lang::En);
            assert_eq!(en.trim_end(), e.to_string().trim_end(), "{text}");
            let ru = record(&e).render(Lang::Ru);
            assert!(ru.starts_with("6.5: "), "{ru}");
            assert_ne!(ru, en);
        }
    }

    /// One error of each kind the record reader gives, built from its
    /// data (not read from a text), with its Russian words written out by
    /// hand from ru.json.
    fn one_of_each_record_error() -> Vec<(RecordError, &'static str)> {
        use legion_rules::game::{DrawReason, Outcome, WinReason};
        let ambiguous = MoveParseError::Ambiguous {
            text: "Nd2".into(),
            options: vec!["Nb1-d2".into(), "Nf3-d2".into()],
        };
        let all = vec![
            (
                RecordError::BadTag { line: 3 },
                "6.5: строка 3: тег записан неверно; пишите [Имя \"значение\"]",
            ),
            (
                RecordError::BadFen(lfen_error("8/8/8/8/8/8/8/8 x - 0 1")),
                "6.5: в теге FEN неверная запись LFEN: 6.2: ",
            ),
            (
                RecordError::UnknownRules("fast".into()),
                "6.5: неизвестный вариант правил «fast» в теге Rules (известен mate-ends-game)",
            ),
            (
                RecordError::UnclosedComment,
                "6.5: комментарий, открытый скобкой «{», не закрыт",
            ),
            (
                RecordError::BadMove {
                    number: 4,
                    dots: "...",
                    text: "Nd2".into(),
                    error: ambiguous,
                },
                "6.5: ход 4... «Nd2»: 6.4: запись «Nd2» неоднозначна: это может быть Nb1-d2 или Nf3-d2",
            ),
            (
                RecordError::MoveAfterEnd {
                    number: 30,
                    dots: ".",
                    text: "c3d4".into(),
                    outcome: Outcome::Draw {
                        reason: DrawReason::Repetition,
                    },
                },
                "6.5: ход 30. «c3d4» записан после окончания партии (ничья: позиция повторилась трижды (5.3))",
            ),
            (
                RecordError::MoveAfterEnd {
                    number: 12,
                    dots: "...",
                    text: "Ke7".into(),
                    outcome: Outcome::Win {
                        winner: Color::White,
                        reason: WinReason::NoLegalMove,
                    },
                },
                "6.5: ход 12... «Ke7» записан после окончания партии (Белые выигрывают: у стороны «Чёрные» нет ходов (5.2))",
            ),
            (
                RecordError::AfterResult {
                    text: "f6-e5".into(),
                    result: "1-0".into(),
                },
                "6.5: после результата 1-0 в записи ходов лишнее «f6-e5»",
            ),
            (
                RecordError::Unexpected(")".into()),
                "6.5: лишнее «)» в записи ходов",
            ),
        ];
        // Every kind is here: a new one fails to compile until it is.
        for (e, _) in &all {
            match e {
                RecordError::BadTag { .. }
                | RecordError::BadFen(_)
                | RecordError::UnknownRules(_)
                | RecordError::UnclosedComment
                | RecordError::BadMove { .. }
                | RecordError::MoveAfterEnd { .. }
                | RecordError::AfterResult { .. }
                | RecordError::Unexpected(_) => {}
            }
        }
        all
    }

    #[test]
    fn every_record_error_renders_from_its_data_in_both_languages() {
        let mut keys = std::collections::BTreeSet::new();
        for (e, ru) in one_of_each_record_error() {
            // English is the rules library's own message, word for word
            // (but the space that ends the unclosed comment's).
            assert_eq!(
                record(&e).render(Lang::En),
                e.to_string().trim_end(),
                "{e:?}"
            );
            let got = record(&e).render(Lang::Ru);
            assert!(got.starts_with(ru), "{got}\n  wanted {ru}");
            keys.insert(record_words(&e).key);
        }
        assert_eq!(keys.len(), 8, "one key a kind: {keys:?}");
    }

    #[test]
    fn an_ambiguous_move_lists_its_readings() {
        let e = MoveParseError::Ambiguous {
            text: "Rd1".into(),
            options: vec!["Ra1-d1".into(), "Rh1-d1".into()],
        };
        assert_eq!(
            typed_move(&e).render(Lang::En),
            "6.4: 'Rd1' is ambiguous: it could be Ra1-d1 or Rh1-d1"
        );
        assert_eq!(
            typed_move(&e).render(Lang::Ru),
            "6.4: запись «Rd1» неоднозначна: это может быть Ra1-d1 или Rh1-d1"
        );
    }

    #[test]
    fn a_record_read_from_text_gives_the_typed_error() {
        let e = Record::parse("1. c3-d4 1-0 f6-e5").unwrap_err();
        assert_eq!(
            e,
            RecordError::AfterResult {
                text: "f6-e5".into(),
                result: "1-0".into()
            }
        );
    }
}
