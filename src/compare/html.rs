//! `compare.html` (being replaced by the charted renderer).

use super::CompareReport;

/// The report as a self-contained HTML page.
pub fn render_html(report: &CompareReport) -> String {
    format!(
        "<!DOCTYPE html><html><body><pre>{}</pre></body></html>",
        report
            .render_table()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
    )
}
