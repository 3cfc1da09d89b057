//! SPEC.md §8.3 (rate-limit headers) and §5 step 6's rate-limit hint, with expected values derived
//! by hand from the spec.

use seeded_backoff::StepInput;
use seeded_backoff::{
    http::{parse_rate_limit, ParseError, RateLimitHeader as H, RATE_LIMIT_HEADERS},
    policy::MAX_DELAY_MS,
    Backoff, GiveUpReason, Jitter, Policy, ServerHint, Step,
};

const RESETS: [H; 3] = [
    H::RateLimitReset,
    H::XRateLimitRetryAfter,
    H::XRateLimitReset,
];

#[test]
fn the_table_is_the_specs() {
    let names = RATE_LIMIT_HEADERS.map(H::name);
    assert_eq!(
        names,
        [
            "ratelimit",
            "ratelimit-reset",
            "x-ratelimit-retry-after",
            "x-ratelimit-reset"
        ]
    );
}

#[test]
fn reset_values_in_seconds_and_fractions() {
    for h in RESETS {
        let p = |v: &str| parse_rate_limit(h, v.as_bytes(), 0);
        assert_eq!(p("30"), Ok(30_000));
        assert_eq!(p(" \t7\t "), Ok(7_000));
        assert_eq!(p("0"), Ok(0));
        assert_eq!(p("1.234"), Ok(1_234));
        assert_eq!(
            p("1.2341"),
            Ok(1_235),
            "rounded up: a lower bound stays one"
        );
        assert_eq!(p("0.0001"), Ok(1));
        assert_eq!(p("0.9999"), Ok(1_000));
        assert_eq!(p("2.5"), Ok(2_500));
        assert_eq!(p("0.000000"), Ok(0));
        // 4294967 s = 4294967000 ms fits; 4294968 s does not.
        assert_eq!(p("4294967"), Ok(4_294_967_000));
        assert_eq!(p("4294968"), Ok(u32::MAX));
        assert_eq!(p("4294967.296"), Ok(u32::MAX));
        assert_eq!(p("4294967.295"), Ok(u32::MAX));
        assert_eq!(p("4294967.294"), Ok(4_294_967_294));
    }
}

#[test]
fn epoch_versus_delta_boundary() {
    let p = |v: &str, now: u64| parse_rate_limit(H::XRateLimitReset, v.as_bytes(), now);
    // 10^9 is a delay (10^12 ms, saturated), whatever the clock says.
    assert_eq!(p("1000000000", 1_000_000_000), Ok(u32::MAX));
    // 10^9 + 1 is a Unix time.
    assert_eq!(p("1000000001", 1_000_000_000), Ok(1_000));
    assert_eq!(p("1000000001", 1_000_000_001), Ok(0));
    assert_eq!(
        p("1000000001", u64::MAX),
        Ok(0),
        "now * 1000 saturates, no overflow"
    );
    assert_eq!(p("1700000060", 1_700_000_000), Ok(60_000));
    assert_eq!(p("1700000000.5", 1_700_000_000), Ok(500));
    assert_eq!(p("1700000000.0001", 1_700_000_000), Ok(1));
    // A GitHub reset an hour ahead, another far ahead (sat32).
    assert_eq!(p("1700003600", 1_700_000_000), Ok(3_600_000));
    assert_eq!(p("9999999999", 1_700_000_000), Ok(u32::MAX));
    assert_eq!(p("99999999999999999999999999", 0), Ok(u32::MAX));
    assert_eq!(
        p("99999999999999999999999999", u64::MAX / 1000),
        Ok(615),
        "both sides saturate at 2^64 - 1: 18446744073709551615 - 18446744073709551000"
    );
}

#[test]
fn reset_value_errors() {
    for h in RESETS {
        let p = |v: &[u8]| parse_rate_limit(h, v, 0);
        assert_eq!(p(b""), Err(ParseError::Empty));
        assert_eq!(p(b" \t "), Err(ParseError::Empty));
        assert_eq!(p(b"-1"), Err(ParseError::Negative));
        assert_eq!(p(b"-"), Err(ParseError::Negative));
        for bad in [
            &b"1."[..],
            b".5",
            b"1.2.3",
            b"+1",
            b"1e3",
            b"1 2",
            b"1,5",
            b"soon",
            b"\xff",
            b"Sun, 06 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(p(bad), Err(ParseError::InvalidFormat), "{bad:?}");
        }
    }
}

#[test]
fn structured_field_forms() {
    let p = |v: &str| parse_rate_limit(H::RateLimit, v.as_bytes(), 0);
    assert_eq!(p(r#""default";r=0;t=30"#), Ok(30_000));
    assert_eq!(p("default;r=0;t=30"), Ok(30_000));
    assert_eq!(
        p(r#""a";r=5;t=10, "b";r=0;t=3"#),
        Ok(3_000),
        "exhausted wins"
    );
    assert_eq!(
        p(r#""a";r=5;t=10, "b";r=6;t=3"#),
        Ok(10_000),
        "else the largest"
    );
    assert_eq!(p(r#""a";r=0;t=10, "b";r=0;t=40"#), Ok(40_000));
    assert_eq!(p(r#""a";t=10, "b";r=0"#), Ok(10_000), "b has no reset");
    assert_eq!(p("limit=100, remaining=0, reset=7"), Ok(7_000));
    assert_eq!(p("limit=100, remaining=50, reset=7"), Ok(7_000));
    assert_eq!(p("default;remaining=0;reset=9"), Ok(9_000));
    assert_eq!(p(r#" "x,y;z" ; r = 0 ; t = 12 "#), Ok(12_000));
    assert_eq!(
        p(r#""a\";t=1";t=2"#),
        Ok(2_000),
        "an escaped quote stays quoted"
    );
    assert_eq!(p(r#""a";t=abc;t=4"#), Ok(4_000), "a bad value is ignored");
    assert_eq!(p(r#""a";t=4;t=abc"#), Ok(4_000));
    assert_eq!(p(r#""a";t=4;t=6"#), Ok(6_000), "a later key overrides");
    assert_eq!(p(r#""a";t=99999999999"#), Ok(u32::MAX));
    assert_eq!(p("\t\"q\";r=0;t=1\t"), Ok(1_000));
}

#[test]
fn structured_field_errors() {
    let p = |v: &[u8]| parse_rate_limit(H::RateLimit, v, 0);
    assert_eq!(p(b""), Err(ParseError::Empty));
    assert_eq!(p(b" \t"), Err(ParseError::Empty));
    for bad in [
        &br#""a";r=0"#[..],
        b"limit=100",
        br#""a";t=-1"#,
        b",,;;",
        b"\"unterminated;t=5",
        b"t",
        b"\xff\xfe",
    ] {
        assert_eq!(p(bad), Err(ParseError::InvalidFormat), "{bad:?}");
    }
}

#[test]
fn hint_from_headers_precedence() {
    let all: [(H, &[u8]); 4] = [
        (H::RateLimit, br#""q";r=0;t=1"#),
        (H::RateLimitReset, b"2"),
        (H::XRateLimitRetryAfter, b"3"),
        (H::XRateLimitReset, b"4"),
    ];
    for skip in 0..4 {
        // Each header in turn is the first present one.
        let headers = |h: H| all[skip..].iter().find(|(k, _)| *k == h).map(|(_, v)| *v);
        let want = (skip as u32 + 1) * 1000;
        assert_eq!(
            ServerHint::from_http_headers(429, None, headers, 0),
            Some(ServerHint::RateLimitResetMs(want))
        );
        assert_eq!(ServerHint::from_http_headers(503, None, headers, 0), None);
        assert_eq!(
            ServerHint::from_http_headers(429, Some(b"9"), headers, 0),
            Some(ServerHint::RetryAfterMs(9_000))
        );
        assert_eq!(
            ServerHint::from_http_headers(503, Some(b"9"), headers, 0),
            Some(ServerHint::RetryAfterMs(9_000))
        );
        assert_eq!(
            ServerHint::from_http_headers(429, Some(b"soon"), headers, 0),
            Some(ServerHint::RateLimitResetMs(want)),
            "an invalid Retry-After does not win"
        );
    }
    // A present header that does not parse passes to the next one.
    let headers = |h: H| match h {
        H::RateLimit => Some(&b"garbage"[..]),
        H::XRateLimitReset => Some(&b"6"[..]),
        _ => None,
    };
    assert_eq!(
        ServerHint::from_http_headers(429, None, headers, 0),
        Some(ServerHint::RateLimitResetMs(6_000))
    );
    assert_eq!(ServerHint::from_http_headers(429, None, |_| None, 0), None);
}

fn none_policy() -> Policy {
    Policy::builder()
        .initial_ms(1000)
        .max_backoff_ms(32_000)
        .jitter(Jitter::None)
        .max_retries(5)
        .build()
        .unwrap()
}

#[test]
fn the_step_jitters_upward_by_hand() {
    // Seed 0's first output is 0x4653DAA3 (SPEC.md §3.1-3.2 by hand). w = 1000 + 10000 / 10 = 2000;
    // 0x4653DAA3 * 2001 = 2360981058579: low word 3044013075 >= 2001, high word 549.
    let p = none_policy();
    let mut b = Backoff::new(&p, 0);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RateLimitResetMs(10_000))
        ),
        Step::Retry {
            delay_ms: 10_549,
            retry: 0
        }
    );
    // The level grew as without the hint: 2000 next (strategy none draws nothing).
    assert_eq!(b.next_delay(&p).delay_ms(), Some(2000));
    // A Retry-After of the same value takes no draw and no jitter.
    let mut c = Backoff::new(&p, 0);
    assert_eq!(
        c.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RetryAfterMs(10_000))
        )
        .delay_ms(),
        Some(10_000)
    );
}

#[test]
fn a_reset_beyond_max_hint_gives_up_and_one_at_it_is_jittered() {
    let p = none_policy().to_builder().max_hint_ms(500).build().unwrap();
    let mut b = Backoff::new(&p, 0);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RateLimitResetMs(501))
        ),
        Step::GiveUp(GiveUpReason::HintExceedsMax)
    );
    let raw = seeded_backoff::bindings::RawBackoff {
        gave_up: 0,
        ..b.to_raw()
    };
    assert_eq!(raw, Backoff::new(&p, 0).to_raw(), "no draw consumed");
    // At the limit: w = 1000 + 500 / 10 = 1050; 0x4653DAA3 * 1051 >> 32 = 288; 788 < base 1000.
    let mut b = Backoff::new(&p, 0);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RateLimitResetMs(500))
        )
        .delay_ms(),
        Some(1000)
    );
    // The draw was consumed all the same: a second state without the hint differs in rng.
    let mut plain = Backoff::new(&p, 0);
    plain.next_delay(&p);
    assert_ne!(b, plain);
}

#[test]
fn the_sum_is_capped_at_max_delay() {
    let p = Policy::builder()
        .initial_ms(1)
        .max_backoff_ms(MAX_DELAY_MS)
        .jitter(Jitter::None)
        .max_retries(1)
        .max_hint_ms(MAX_DELAY_MS)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 0);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RateLimitResetMs(MAX_DELAY_MS))
        )
        .delay_ms(),
        Some(MAX_DELAY_MS)
    );
}

#[test]
fn a_give_up_consumes_no_draw() {
    let p = none_policy()
        .to_builder()
        .max_elapsed_ms(5000)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 0);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RateLimitResetMs(10_000))
        ),
        Step::GiveUp(GiveUpReason::Deadline)
    );
    let mut fresh = Backoff::new(&p, 0);
    fresh.reset(&p);
    b.reset(&p);
    assert_eq!(b, fresh, "same rng as a state that never stepped");
}
#[test]
fn the_date_free_hint_is_the_full_rule_where_it_answers() {
    use seeded_backoff::http::RATE_LIMIT_HEADERS;
    use seeded_backoff::ServerHint;
    let long = [b'0'; 9000];
    let values: [Option<&[u8]>; 9] = [
        None,
        Some(b"120"),
        Some(b" 7 "),
        Some(b"-1"),
        Some(b""),
        Some(b"soon"),
        Some(b"Sun, 06 Nov 1994 08:49:37 GMT"),
        Some(&long),
        Some(&long[..8192]),
    ];
    let rate_limits: [Option<&[u8]>; 3] = [None, Some(b"30"), Some(b"garbage")];
    for status in [200, 429, 503, 70_000] {
        for retry_after in values {
            for rl in rate_limits {
                let header = |h| (h == RATE_LIMIT_HEADERS[1]).then_some(rl).flatten();
                // A status beyond HTTP's u16 is no status: the full rule is asked with 0.
                let s = u16::try_from(status).unwrap_or(0);
                let core = ServerHint::from_http_headers(s, retry_after, header, 784_111_000);
                match ServerHint::without_dates(status, retry_after, rl.is_some()) {
                    // Where it answers, it answers what the full rule does.
                    Some(h) => assert_eq!(h, core),
                    // Where it does not, the date part is needed: a date, or a rate-limit header.
                    None => assert!(
                        retry_after == Some(b"Sun, 06 Nov 1994 08:49:37 GMT")
                            || retry_after == Some(b"soon")
                            || (status == 429 && rl.is_some())
                    ),
                }
            }
        }
    }
}
