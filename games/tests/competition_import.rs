//! Entries from the registration form (附件1 报名表) and 不得兼项 (四1).

use qipai_games::competition::import::{import_form, parse_form, ImportError};
use qipai_games::competition::{Competition, CompetitionError, Event, Player, Settings};

fn pair() -> (Competition, Competition) {
    (
        Competition::new(Settings::new(Event::TuolajiPairs, 1)),
        Competition::new(Settings::new(Event::XiangqiSingles, 1)),
    )
}

const FORM: &str = "\u{feff}department,event,pair,name,phone,joined_group
计算机学院,扑克牌拖拉机,1,张三,13800000000,是
计算机学院,tuolaji,1,李四,,
计算机学院,中国象棋,,王五,13900000000,否

\"数学, 统计学院\",xiangqi,,\"赵 \"\"六\"\"\",,
";

/// 附件1: pairs by 配对 number, singles, contact details kept for directors only.
#[test]
fn imports_the_form() {
    let (mut t, mut x) = pair();
    import_form(FORM, &mut t, &mut x).unwrap();
    assert_eq!(t.entries.len(), 1);
    assert_eq!(t.entries[0].team.0, "计算机学院");
    assert_eq!(t.entries[0].pair_number, Some(1));
    assert_eq!(t.entries[0].players.len(), 2);
    assert_eq!(x.entries.len(), 2);
    assert_eq!(x.entries[1].team.0, "数学, 统计学院");
    assert_eq!(x.entries[1].players[0].name, "赵 \"六\"");
    let contact = t.entries[0].players[0].contact.as_ref().unwrap();
    assert_eq!(contact.0.phone, "13800000000");
    // Director-only: Debug output never shows it.
    assert!(!format!("{:?}", t.entries[0]).contains("13800000000"));
    assert!(t.entries[0].players[1].contact.is_none());
}

/// Each kind of bad line is named with its line number, and nothing is imported.
#[test]
fn errors_name_the_line() {
    let cases = [
        (
            "a,tuolaji,1\n",
            ImportError::MissingFields { line: 1, fields: 3 },
        ),
        (
            "a,xiangqi,,x\na,go,,y\n",
            ImportError::UnknownEvent {
                line: 2,
                event: "go".into(),
            },
        ),
        (
            "a,tuolaji,,x\n",
            ImportError::BadPairNumber {
                line: 1,
                pair: String::new(),
            },
        ),
        (
            "a,tuolaji,0,x\n",
            ImportError::BadPairNumber {
                line: 1,
                pair: "0".into(),
            },
        ),
        (
            ",xiangqi,,x\n",
            ImportError::EmptyField {
                line: 1,
                field: "department",
            },
        ),
        (
            "A,xiangqi,,\n",
            ImportError::EmptyField {
                line: 1,
                field: "name",
            },
        ),
        (
            "a,xiangqi,,\"x\n",
            ImportError::UnterminatedQuote { line: 1 },
        ),
        (
            "a,xiangqi,,y\na,tuolaji,2,x\n",
            ImportError::IncompletePair {
                line: 2,
                department: "a".into(),
                pair: 2,
                players: 1,
            },
        ),
    ];
    for (text, want) in cases {
        let (mut t, mut x) = pair();
        assert_eq!(import_form(text, &mut t, &mut x), Err(want), "{text}");
        assert!(
            t.entries.is_empty() && x.entries.is_empty(),
            "{text}: nothing changes"
        );
    }
}

/// 四1 "扑克牌拖拉机参赛人员和中国象棋参赛人员不得兼项": a player in both events is refused.
#[test]
fn one_event_only() {
    let (mut t, mut x) = pair();
    let text = "a,tuolaji,1,甲,,\na,tuolaji,1,乙,,\na,xiangqi,,甲,,\n";
    let err = import_form(text, &mut t, &mut x).unwrap_err();
    assert_eq!(
        err,
        ImportError::Refused {
            line: 3,
            error: CompetitionError::AlreadyEntered {
                name: "甲".into(),
                team: "a".into()
            }
        }
    );
    assert!(t.entries.is_empty() && x.entries.is_empty());
    // The option off: allowed.
    x.settings.one_event_only = false;
    import_form(text, &mut t, &mut x).unwrap();
    assert_eq!((t.entries.len(), x.entries.len()), (1, 1));
}

/// 一: a pair has two players, a single one; a player is not entered twice.
#[test]
fn entry_sizes_and_duplicates() {
    let (mut t, _) = pair();
    let p = |n: &str| Player {
        name: n.into(),
        contact: None,
    };
    assert!(matches!(
        t.add_entry("a", Some(1), vec![p("x")], &[]),
        Err(CompetitionError::WrongEntrySize {
            expected: 2,
            got: 1,
            ..
        })
    ));
    t.add_entry("a", Some(1), vec![p("x"), p("y")], &[])
        .unwrap();
    assert!(matches!(
        t.add_entry("a", Some(2), vec![p("x"), p("z")], &[]),
        Err(CompetitionError::DuplicatePlayer { .. })
    ));
    assert_eq!(t.entries.len(), 1);
    assert_eq!(parse_form("").unwrap(), vec![]);
}

/// The header row copied from the form's own headings (and the page's help text) is a
/// header, not a bad line; so is 部门工会 first.
#[test]
fn the_forms_own_header_is_skipped() {
    for header in [
        "单位,项目,组号,姓名,电话,是否入群",
        "部门工会,项目,配对,姓名,联系电话,是否已加入参赛群",
    ] {
        let text = format!("{header}\n计算机学院,拖拉机,1,张三,,\n计算机学院,拖拉机,1,李四,,\n");
        let (mut t, mut x) = pair();
        import_form(&text, &mut t, &mut x).unwrap();
        assert_eq!(t.entries.len(), 1, "{header}");
    }
    // Only the first line may be a header.
    let text = "A,象棋,,王\n单位,项目,组号,姓名,电话,是否入群\n";
    assert!(matches!(
        parse_form(text),
        Err(ImportError::UnknownEvent { line: 2, .. })
    ));
}

/// Every refusal names its line and the field at fault, for a page to say in its language.
#[test]
fn refusals_carry_line_and_field() {
    let err = parse_form("单位,项目,组号,姓名\nA,围棋,,王\n").unwrap_err();
    let d = err.details();
    assert_eq!(d.reason.as_deref(), Some("unknown_event"));
    assert_eq!((d.line, d.field.as_deref()), (Some(2), Some("event")));
    assert_eq!(d.value.as_deref(), Some("围棋"));
    let d = parse_form("A,象棋,,\n").unwrap_err().details();
    assert_eq!(
        (d.reason.as_deref(), d.field.as_deref()),
        (Some("empty_field"), Some("name"))
    );
    let (mut t, mut x) = pair();
    let d = import_form("A,拖拉机,1,甲\n", &mut t, &mut x)
        .unwrap_err()
        .details();
    assert_eq!(
        (d.reason.as_deref(), d.count, d.required),
        (Some("incomplete_pair"), Some(1), Some(2))
    );
    let d = import_form(
        "a,tuolaji,1,甲\na,tuolaji,1,乙\na,xiangqi,,甲\n",
        &mut t,
        &mut x,
    )
    .unwrap_err()
    .details();
    assert_eq!(
        (d.reason.as_deref(), d.line),
        (Some("already_entered"), Some(3))
    );
}
