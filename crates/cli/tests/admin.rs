//! `legion admin` beside a running server (issue 20 item 7): the newest
//! accounts, disabling and enabling one, ending its sessions; errors are
//! one line.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Output};

fn legion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_legion"))
        .args(args)
        .output()
        .expect("run legion")
}

/// One HTTP request; (status, head, body).
fn http(
    port: u16,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let cookie = cookie
        .map(|c| format!("Cookie: legion_session={c}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json\r\n{cookie}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), rest.to_string())
}

fn session(head: &str) -> String {
    head.split("legion_session=")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .unwrap()
        .to_string()
}

#[test]
fn a_host_lists_disables_and_signs_out_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("site.db");
    let db = db.to_str().unwrap();
    let (mut server, port) = common::serve(&["--db", db]);
    let creds = r#"{"username": "Olga", "password": "a good password"}"#;
    let (status, head, _) = http(port, "POST", "/api/account/register", None, creds);
    assert_eq!(status, 201);
    let cookie = session(&head);
    http(
        port,
        "POST",
        "/api/account/register",
        None,
        r#"{"username": "Pavel", "password": "a good password"}"#,
    );

    let out = legion(&["admin", "--db", db, "accounts"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(names, ["Pavel", "Olga"], "newest first: {text}");
    assert!(text.lines().all(|l| l.ends_with("\tactive")), "{text}");

    // Disabled: its session ends and it cannot sign in.
    let out = legion(&["admin", "--db", db, "disable", "olga"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Olga disabled; 1 sessions ended"
    );
    assert_eq!(http(port, "GET", "/api/account", Some(&cookie), "").0, 401);
    assert_eq!(http(port, "POST", "/api/account/login", None, creds).0, 401);
    // Enabled again, it signs in; ending its sessions signs it out.
    assert!(
        legion(&["admin", "--db", db, "enable", "Olga"])
            .status
            .success()
    );
    let (status, head, _) = http(port, "POST", "/api/account/login", None, creds);
    assert_eq!(status, 200);
    let cookie = session(&head);
    assert_eq!(http(port, "GET", "/api/account", Some(&cookie), "").0, 200);
    assert!(
        legion(&["admin", "--db", db, "end-sessions", "Olga"])
            .status
            .success()
    );
    assert_eq!(http(port, "GET", "/api/account", Some(&cookie), "").0, 401);

    // Unknown names and databases: one line, status 2.
    for args in [
        vec!["admin", "--db", db, "disable", "nobody"],
        vec!["admin", "--db", "/no/such/site.db", "accounts"],
    ] {
        let out = legion(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("legion: ") && err.lines().count() == 1,
            "{err}"
        );
    }
    let _ = server.kill();
    let _ = server.wait();
}
