use seeded_backoff::{retry_reqwest, Policy};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let url = std::env::args().nth(1).ok_or("usage: reqwest_retry URL")?;
    let client = reqwest::Client::new();
    // 429s, 5xx and connection errors are retried with Google's backoff, each wait at least
    // what the server's Retry-After asks; every call draws its own seed, so clients retry apart.
    let response = retry_reqwest(&Policy::google(), client.get(url)).await?;
    println!("HTTP {}", response.status());
    Ok(())
}
