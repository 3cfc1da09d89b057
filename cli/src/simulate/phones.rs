//! `outage --phones SHARE`: the outage with a share of the fleet on phones. Desktops run Google's
//! preset; the phones run Google's preset in one row and the mobile preset in the other (SPEC.md
//! §2), each with its own retry limit (the retry count is part of the advice), so the rows show
//! what the mobile preset changes for the recovering server (the busiest second) and for the
//! phones (whether they get through). The network is the same for every client: the outage is the
//! phones' dead zone and the server's downtime at once.

use seeded_backoff::policy::Preset;
use seeded_backoff::{Jitter, Policy};

use super::model::OUTAGE_BASE_MS;
use super::outage::{outage_fleet, Fleet, OutageRow, Rejection, Server};

/// The phones' presets the rows compare, in order.
pub const PHONE_PRESETS: [Preset; 2] = [Preset::Google, Preset::Mobile];

/// A preset's times scaled to Google's first delay being `base_ms` (1000 is the preset itself).
pub fn scaled_preset(preset: Preset, base_ms: u32) -> Policy {
    let p = preset.policy();
    let scale = |ms: u32| (ms as u64 * base_ms as u64 / OUTAGE_BASE_MS as u64) as u32;
    let jitter = match p.jitter() {
        Jitter::Google { jitter_ms } => Jitter::Google {
            jitter_ms: scale(jitter_ms),
        },
        other => other,
    };
    p.to_builder()
        .initial_ms(scale(p.initial_ms()).max(1))
        .max_backoff_ms(scale(p.max_backoff_ms()).max(1))
        .jitter(jitter)
        .build()
        .expect("a scaled preset is valid")
}

/// The phones among `clients`: `share_percent` of them, rounded down.
pub fn phone_count(clients: u32, share_percent: u32) -> u32 {
    (clients as u64 * share_percent as u64 / 100) as u32
}

/// One row: desktops on Google's preset, phones on `phone`, against the outage's server.
pub fn phones_row(
    phone: Preset,
    clients: u32,
    share_percent: u32,
    runs: u32,
    seed: u64,
    (outage_s, capacity, base_ms): (u32, u32, u32),
) -> OutageRow {
    let desktop = scaled_preset(Preset::Google, base_ms);
    let phone_policy = scaled_preset(phone, base_ms);
    let fleet = Fleet {
        desktop: &desktop,
        phone: &phone_policy,
        phones: phone_count(clients, share_percent),
    };
    let server = Server {
        outage_ms: outage_s as u64 * 1000,
        capacity,
        rejection: Rejection::Unavailable,
    };
    let name = match phone {
        Preset::Mobile => "phones on mobile",
        _ => "phones on google",
    };
    outage_fleet(name, fleet, true, clients, runs, seed, server)
}

/// The rows a run asks for (`--phones`), one per phone preset, on all cores.
pub fn rows(setup: &super::Setup) -> Vec<OutageRow> {
    match setup.phones {
        Some(share) if setup.outage => super::per_item(&PHONE_PRESETS, |&p| {
            phones_row(
                p,
                setup.outage_clients,
                share,
                setup.runs,
                setup.seed,
                (setup.outage_s, setup.capacity, setup.base_ms),
            )
        }),
        _ => Vec::new(),
    }
}

/// Prints the rows as a table (the outage's other figures are in its own table above).
pub fn print_phones(rows: &[OutageRow], clients: u32, share_percent: u32, runs: u32) {
    if rows.is_empty() {
        return;
    }
    let phones = phone_count(clients, share_percent) as u64 * runs as u64;
    let desktops = (clients as u64 * runs as u64).saturating_sub(phones);
    println!();
    println!(
        "outage with phones: {share_percent} % of the {clients} clients are phones; desktops on the \
         google preset (10 retries), phones on google or on mobile (16 retries, equal jitter, 64 s \
         cap); the presets' own retry limits"
    );
    println!(
        "{:<18} {:>9} {:>9} {:>14} {:>14} {:>14} {:>16}",
        "fleet",
        "peak rps",
        "peak max",
        "all done p50 s",
        "all done max s",
        "phones failed",
        "desktops failed"
    );
    for r in rows {
        let secs = |ms: u64| ms as f64 / 1000.0;
        println!(
            "{:<18} {:>9} {:>9} {:>14.1} {:>14.1} {:>14} {:>16}",
            r.strategy,
            r.peak_rps_mean,
            r.peak_rps_max,
            secs(r.all_done_p50_ms),
            secs(r.all_done_max_ms),
            format!("{}/{phones}", r.failed_phones),
            format!("{}/{desktops}", r.failed - r.failed_phones),
        );
    }
    println!(
        "(peak rps: the busiest second from recovery on, mean over runs; all done: time after \
         recovery until every client that succeeds has, the failed ones left out; failed: clients \
         whose retries ran out, over all runs)"
    );
    if let [google, mobile] = rows {
        let met = |ok: bool| if ok { "met" } else { "NOT met" };
        if google.succeeded == 0 {
            println!(
                "goal: phones on mobile make the busiest second after recovery lower than phones \
                 on google: no figure to compare, every client on google gave up before recovery"
            );
        } else {
            println!(
                "goal: phones on mobile make the busiest second after recovery lower than phones \
                 on google: {} ({} against {} requests/s)",
                met(mobile.peak_rps_mean < google.peak_rps_mean),
                mobile.peak_rps_mean,
                google.peak_rps_mean
            );
        }
        println!(
            "goal: no phone on mobile gives up: {} ({} of {phones}; on google {})",
            met(mobile.failed_phones == 0),
            mobile.failed_phones,
            google.failed_phones
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(phone: Preset, outage_s: u32) -> OutageRow {
        // 2000 clients, half on phones, capacity a tenth of them, on a 100 ms base (a 12 s
        // outage at this scale is Google's 120 s).
        phones_row(phone, 2000, 50, 3, 1, (outage_s, 200, 100))
    }

    #[test]
    fn the_presets_scale_with_the_base() {
        let m = scaled_preset(Preset::Mobile, 100);
        assert_eq!(
            (m.initial_ms(), m.max_backoff_ms(), m.max_retries()),
            (200, 6400, 16)
        );
        let g = scaled_preset(Preset::Google, 100);
        assert_eq!(g.jitter(), Jitter::Google { jitter_ms: 100 });
        assert_eq!(scaled_preset(Preset::Google, 1000), Policy::google());
        assert_eq!(scaled_preset(Preset::Mobile, 1000), Policy::mobile());
        assert_eq!(phone_count(1001, 50), 500);
    }

    // The mobile preset keeps its jitter at the cap: the phones do not come back in step, so the
    // recovering server's busiest second is lower than with every phone on Google's preset.
    #[test]
    fn phones_on_mobile_spread_the_recovery() {
        let google = row(Preset::Google, 12);
        let mobile = row(Preset::Mobile, 12);
        assert!(
            mobile.peak_rps_mean < google.peak_rps_mean,
            "mobile {} google {}",
            mobile.peak_rps_mean,
            google.peak_rps_mean
        );
        assert_eq!((mobile.failed_phones, mobile.unfinished), (0, 0));
    }

    // A dead zone longer than Google's 10 retries last (191 s at 1 s, 19.1 s here): every phone
    // on Google's preset gives up before the server is back; on the mobile preset (383 s at the
    // least, 38.3 s here) none does.
    #[test]
    fn a_long_dead_zone_fails_googles_phones_not_mobiles() {
        let google = row(Preset::Google, 25);
        let mobile = row(Preset::Mobile, 25);
        assert_eq!(google.failed_phones, 3 * 1000);
        assert_eq!(mobile.failed_phones, 0);
    }
}
