//! Reading crawled pages and decoding them to text.
