//! The organiser's papers and inputs over HTTP (PROTOCOL.md §17.1, §17.2): a registration
//! form saved by a Chinese Excel (GBK/GB18030) or as UTF-8 with a byte-order mark imports,
//! with the form's own header row; a bad form is refused naming its line and field in
//! `details`; the round CSV says who plays Red; team totals download as `teams.csv`.

mod common;

use common::competition::{get, login, post, post_ok, server_with_director, start_round};
use common::{http_get, TestServer};
use serde_json::{json, Value};

const FORM: &str = "单位,项目,组号,姓名,电话,是否入群
机关工会,象棋,,赵一,13700000001,是
后勤工会,象棋,,钱二,,
教学工会,拖拉机,1,孙三,,
教学工会,拖拉机,1,李四,,
科研工会,拖拉机,1,周五,,
科研工会,拖拉机,1,吴六,,
";

/// A server, its director and two partnered competitions (Tuolaji, then xiangqi).
async fn set_up() -> (TestServer, String, u64, u64) {
    let s = server_with_director(|_| {}).await;
    let token = login(&s).await;
    let create = |body: Value| {
        let (s, token) = (&s, token.clone());
        async move {
            post_ok(s, &token, "/api/director/competitions", &body.to_string()).await["id"]
                .as_u64()
                .unwrap()
        }
    };
    let t = create(json!({"name":"工会杯 拖拉机","event":"tuolaji","rounds":1,"seed":1})).await;
    let x = create(json!({"name":"工会杯 象棋","event":"xiangqi","rounds":1,"seed":2,"partner":t}))
        .await;
    (s, token, t, x)
}

/// Posts `body` (any bytes) as the registration form of competition `id`.
async fn import(s: &TestServer, token: &str, id: u64, body: &[u8]) -> (u16, Value) {
    let path = format!("/api/director/competitions/{id}/entries");
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: text/csv\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    head.extend_from_slice(body);
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(&head).await.unwrap();
    let mut reply = Vec::new();
    tcp.read_to_end(&mut reply).await.unwrap();
    common::competition::parse(&String::from_utf8_lossy(&reply))
}

#[tokio::test]
async fn a_gbk_form_with_its_own_header_imports() {
    let (s, token, t, x) = set_up().await;
    let (gbk, _, unmappable) = encoding_rs::GBK.encode(FORM);
    assert!(!unmappable);
    let (status, v) = import(&s, &token, x, &gbk).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["imported"].as_u64(), v["imported_into_partner"].as_u64()),
        (Some(2), Some(2))
    );
    let entries = get(&s, &format!("/api/competitions/{t}/entries")).await.1;
    assert_eq!(entries["entries"][0]["team"], "教学工会", "{entries}");
    assert_eq!(entries["entries"][0]["players"][1]["name"], "李四");
}

#[tokio::test]
async fn a_utf8_form_with_a_bom_imports() {
    let (s, token, _, x) = set_up().await;
    let body = [b"\xEF\xBB\xBF".as_slice(), FORM.as_bytes()].concat();
    let (status, v) = import(&s, &token, x, &body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["imported"].as_u64(), Some(2));
}

#[tokio::test]
async fn a_refused_form_names_its_line_and_field() {
    let (s, token, _, x) = set_up().await;
    let bad = "单位,项目,组号,姓名\n机关工会,象棋,,赵一\n后勤工会,围棋,,钱二\n";
    let (status, v) = import(&s, &token, x, bad.as_bytes()).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_entry_form");
    let d = &v["error"]["details"];
    assert_eq!(
        (&d["reason"], &d["line"], &d["field"], &d["value"]),
        (
            &json!("unknown_event"),
            &json!(3),
            &json!("event"),
            &json!("围棋")
        ),
        "{v}"
    );
    // A pair of one: its first line, the pair field, how many it has.
    let (_, v) = import(&s, &token, x, "A,拖拉机,2,甲\n".as_bytes()).await;
    let d = &v["error"]["details"];
    assert_eq!(
        (&d["reason"], &d["line"], &d["count"]),
        (&json!("incomplete_pair"), &json!(1), &json!(1)),
        "{v}"
    );
    // Bytes that are no text at all.
    let (status, v) = import(&s, &token, x, b"A,\xFF\xFE\xFF,,x\n").await;
    assert_eq!(
        (status, &v["error"]["details"]["reason"]),
        (400, &json!("not_text")),
        "{v}"
    );
    // Nothing was imported.
    let entries = get(&s, &format!("/api/competitions/{x}/entries")).await.1;
    assert_eq!(entries["entries"], json!([]));
}

#[tokio::test]
async fn the_round_csv_says_who_plays_red_and_teams_csv_has_the_totals() {
    let (s, token, t, x) = set_up().await;
    let (status, v) = import(&s, &token, x, FORM.as_bytes()).await;
    assert_eq!(status, 200, "{v}");
    let round = start_round(&s, &token, x).await;
    let csv = http_get(&s, &format!("/api/competitions/{x}/rounds/1.csv")).await;
    let body = csv.split_once("\r\n\r\n").unwrap().1;
    let mut lines = body.lines();
    assert_eq!(
        lines.next(),
        Some("round,table,first_team,first_players,first_seats,second_team,second_players,second_seats,result")
    );
    let red = round["tables"][0]["first"]["players"][0].as_str().unwrap();
    let row = lines.next().unwrap();
    let cells: Vec<&str> = row.split(',').collect();
    assert_eq!(
        (cells[3], cells[4], cells[7]),
        (red, "red", "black"),
        "{row}"
    );
    // Tuolaji: the first pair at seats 1 and 3.
    start_round(&s, &token, t).await;
    let csv = http_get(&s, &format!("/api/competitions/{t}/rounds/1.csv")).await;
    assert!(csv.contains(",1+3,") && csv.contains(",2+4,"), "{csv}");

    let results = |id: u64| format!("/api/director/competitions/{id}/results");
    let body = json!({"round":1,"table":1,"result":"first_wins"}).to_string();
    for id in [t, x] {
        let (status, v) = post(&s, Some(&token), &results(id), &body).await;
        assert_eq!(status, 200, "{v}");
    }
    let teams = get(&s, &format!("/api/competitions/{x}/teams")).await.1;
    let csv = http_get(&s, &format!("/api/competitions/{x}/teams.csv")).await;
    assert!(csv.starts_with("HTTP/1.1 200"), "{csv}");
    assert!(csv.contains("text/csv"), "{csv}");
    let body = csv.split_once("\r\n\r\n").unwrap().1;
    let mut lines = body.lines();
    assert_eq!(
        lines.next(),
        Some("rank,team,total,opponents_points,level_diff,lot,counted,award,award_zh")
    );
    let rows: Vec<&str> = lines.collect();
    let list = teams["teams"].as_array().unwrap();
    assert_eq!(rows.len(), list.len());
    for (row, team) in rows.iter().zip(list) {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[1], team["team"].as_str().unwrap(), "{row}");
        assert_eq!(cells[2], team["total"].to_string(), "{row}");
        assert_eq!(cells[8], team["award_zh"].as_str().unwrap_or(""), "{row}");
    }
}
