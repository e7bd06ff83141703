"""docview.extract, docview.Extractor and Extraction on the bundled sample pages."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import docview

from conftest import SAMPLES, sample_pages


def first_words(text: str, n: int = 6) -> str:
    return " ".join(text.split()[:n])


def test_an_article_gives_its_text_from_its_first_words_on(page_by_file):
    page = page_by_file("fieldnotes/moths.html")
    got = docview.extract(page["bytes"], page["url"])
    # The article from its first words on (its headline, a block before the article's body,
    # may come first: it scores near the bar before the main region).
    assert 0 <= got.text.find("On a warm, still night in early August") <= len("A night at the porch light\n\n")
    # The samples' labels count the figure's caption as the article's; the default leaves an
    # article's captions out (the labelled sets' references do), favor="recall" keeps them.
    caption = "An elephant hawk-moth on the sheet"
    recall = docview.extract(page["bytes"], page["url"], favor="recall").text
    for paragraph in page["main_content"][1:]:
        assert (first_words(paragraph) in got.text) == (first_words(paragraph) != caption)
        assert first_words(paragraph) in recall
    for boilerplate in page["without"]:
        assert boilerplate not in got.text
    # The display:none promo text of every Fieldnotes page never reaches the topic content.
    assert "best binoculars under 200 pounds" not in got.text
    assert got.page_type == "topic"
    assert got.cleaner_page_type == "topic"
    assert got.genre["class"] == "article"
    assert got.subject["scheme"] == "iptc-mediatopic"
    assert got.subject["model"].startswith("docview-subject-classifier v1 ")
    assert got.language == "en"
    assert got.format == "text"
    assert got.content == got.text
    assert got.cleaner == "learned"
    assert got.url == page["url"]
    assert got.title == "A night at the porch light"  # the site name cut off, in metadata["site_name"]
    assert got.metadata["title"]["source"] == "json-ld" and got.metadata["site_name"]["value"] == "Fieldnotes"
    assert got.charset == "UTF-8"
    assert got.truncated is None
    assert got.blocks is None


def test_an_article_of_2003_in_windows_1252(page_by_file):
    page = page_by_file("harbor-gazette/ferry.html")
    got = docview.extract(page["bytes"], page["url"])
    # A kicker line, then the headline and the article.
    assert got.text.splitlines()[:2] == ["LOCAL NEWS", "Ferry service to Gull Island resumes after dock repairs"]
    for paragraph in page["main_content"][1:]:
        assert first_words(paragraph) in got.text
    for boilerplate in page["without"]:
        assert boilerplate not in got.text
    # ISO-8859-1 declared, read as the web reads that label: windows-1252.
    assert got.charset == "windows-1252"
    assert "Renée Castonguay" in got.text
    assert got.page_type == "topic"


def test_chinese_pages_in_gb2312_and_utf8(page_by_file):
    bridge = page_by_file("lanting-news/bridge.html")
    got = docview.extract(bridge["bytes"], bridge["url"])
    assert got.charset == "GBK"
    assert got.language == "zh"
    # The article from its first words on (its headline, a block before it, may come first).
    assert 0 <= got.text.find("本报讯（记者 周文涛）10月18日上午") <= len("清溪大桥今日正式通车\n\n")
    # The same article reprinted on a UTF-8 site, given as str (decoded already).
    reprint = page_by_file("xinyu-daily/bridge-reprint.html")
    got = docview.extract(reprint["bytes"].decode("utf-8"), reprint["url"])
    assert got.charset == "UTF-8"
    assert got.text.startswith("澜汀：清溪大桥今日正式通车\n\n编者按")
    assert "随着第一辆公交车缓缓驶上桥面" in got.text


def test_str_and_bytes_give_the_same_topic_content(page_by_file):
    for name in ["fieldnotes/moths.html", "harbor-gazette/storm.html"]:
        page = page_by_file(name)
        from_bytes = docview.extract(page["bytes"], page["url"])
        # The str as the page's real charset reads it (storm.html: windows-1252 bytes).
        text = page["bytes"].decode("utf-8" if name.startswith("fieldnotes") else "cp1252")
        from_str = docview.extract(text, page["url"])
        assert from_bytes.text == from_str.text, name
        assert from_str.charset == "UTF-8"


def test_a_listing_page_is_a_hub(page_by_file):
    for name in ["harbor-gazette/index.html", "fieldnotes/index.html", "lanting-news/index.html"]:
        page = page_by_file(name)
        got = docview.extract(page["bytes"], page["url"])
        # The DocView type: the classifier's class, borne out by the links of the topic
        # content, makes a hub of a listing whose teasers the cleaner kept as text.
        assert got.page_type == "hub", name
        assert got.genre["class"] == "listing", name
        assert got.cleaner_page_type == "topic", name


def test_a_gallery_is_an_image_page(page_by_file):
    page = page_by_file("fieldnotes/salt-marsh-photo-essay.html")
    got = docview.extract(page["bytes"], page["url"])
    assert got.page_type == "image"
    assert "Frost on the glasswort at the creek edge" in got.text


def test_the_html_format_is_the_topic_content_page(page_by_file):
    page = page_by_file("harbor-gazette/ferry.html")
    got = docview.extract(page["bytes"], page["url"], format="html")
    assert got.format == "html"
    assert got.content.startswith("<!DOCTYPE html>")
    assert "Brackett Marine of Port Anson" in got.content
    assert "Brackett Marine of Port Anson" in got.text


def test_the_json_format_is_the_report_of_docview_extract(page_by_file):
    page = page_by_file("harbor-gazette/ferry.html")
    got = docview.extract(page["bytes"], page["url"], format="json")
    report = json.loads(got.content)
    assert report["url"] == page["url"]
    assert report["input"] == page["url"]
    assert report["cleaner"] == "learned"
    assert report["page_type"] == got.page_type
    assert report["topic_content"] == got.text
    assert report["language"] == "en"
    assert report["blocks"], "every block of the tag tree is reported"
    # Without blocks=True the blocks are only in the report, not on the Extraction.
    assert got.blocks is None


def test_the_markdown_format(page_by_file):
    page = page_by_file("fieldnotes/lichens.html")
    got = docview.extract(page["bytes"], page["url"], format="markdown")
    assert got.format == "markdown"
    lines = got.content.splitlines()
    assert lines[0].startswith("The churchyard at the end of our lane")
    # Section headings become Markdown headings, the figure an image with its alt text.
    assert "## A clock that grows in circles" in lines
    assert "## Leave it be" in lines
    # Links and images come out with absolute URLs, from the page's URL.
    assert "](http://www.fieldnotes.example/media/headstone-1843.jpg)" in got.content
    assert "](/" not in got.content
    assert got.text.startswith("The churchyard at the end of our lane")


def test_blocks_lists_every_block_with_its_verdict(page_by_file):
    page = page_by_file("fieldnotes/dawn-chorus.html")
    got = docview.extract(page["bytes"], page["url"], blocks=True)
    assert isinstance(got.blocks, list) and len(got.blocks) > 10
    verdicts = {b["verdict"] for b in got.blocks}
    assert len(verdicts) >= 2, verdicts
    for block in got.blocks:
        assert {"id", "label", "type", "weight", "verdict", "reason"} <= block.keys()
    # The learned cleaner's blocks carry their score.
    assert any("score" in b for b in got.blocks)
    # The JSON report's blocks are the same.
    with_report = docview.extract(page["bytes"], page["url"], format="json", blocks=True)
    assert json.loads(with_report.content)["blocks"] == with_report.blocks == got.blocks


def test_metadata(page_by_file):
    page = page_by_file("fieldnotes/dawn-chorus.html")
    got = docview.extract(page["bytes"], page["url"])
    assert isinstance(got.metadata, dict)
    assert set(got.metadata) == {
        "title", "author", "published", "modified", "site_name", "description", "image",
        "categories", "tags", "canonical_url", "language",
    }
    for name, value in got.metadata.items():
        # Categories and tags: one source's values.
        keys = {"values", "source"} if name in ("categories", "tags") else {"value", "source"}
        assert value is None or set(value) == keys, name
    assert got.metadata["title"]["value"] == got.title
    # What the page declares: its canonical URL, its site's name (og:site_name, before the
    # JSON-LD publisher), its language.
    assert got.metadata["canonical_url"] == {
        "value": "http://www.fieldnotes.example/2021/04/what-the-dawn-chorus-is-saying/",
        "source": "link-canonical",
    }
    assert got.metadata["site_name"] == {"value": "Fieldnotes", "source": "open-graph"}
    assert got.metadata["language"] == {"value": "en", "source": "html-lang"}
    # The JSON report holds the same.
    report = json.loads(docview.extract(page["bytes"], page["url"], format="json").content)
    assert report["metadata"] == got.metadata


def test_to_dict_and_repr(page_by_file):
    page = page_by_file("harbor-gazette/ferry.html")
    got = docview.extract(page["bytes"], page["url"])
    d = got.to_dict()
    assert d is not got.to_dict()
    assert d["text"] == got.text
    assert d["title"] == got.title
    assert d["page_type"] == "topic"
    assert set(d) == {
        "text", "content", "format", "title", "page_type", "cleaner_page_type", "genre", "subject",
        "language", "metadata", "blocks", "url", "cleaner", "charset", "truncated", "comments",
    }
    r = repr(got)
    assert r.startswith("Extraction(page_type='topic', language='en', format='text'")
    assert "LOCAL NEWS\\nFerry service to Gull Island" in r
    assert page["url"] in r


@pytest.mark.parametrize("cleaner", docview.CLEANERS)
def test_every_cleaner_cleans_a_page(page_by_file, cleaner):
    page = page_by_file("xinyu-daily/index.html")
    got = docview.extract(page["bytes"], page["url"], cleaner=cleaner)
    assert got.cleaner == cleaner
    for snippet in page["with"][1:3]:
        assert snippet in got.text, snippet


def test_unknown_names_are_argument_errors():
    with pytest.raises(ValueError, match=r'format: unknown format "pdf" \(known: text, markdown, html, json\)') as e:
        docview.extract("<p>x</p>", format="pdf")
    assert isinstance(e.value, docview.ArgumentError)
    assert isinstance(e.value, docview.DocviewError)
    with pytest.raises(docview.ArgumentError, match=r'cleaner: unknown cleaner "readability" \(known: learned, '):
        docview.extract("<p>x</p>", cleaner="readability")
    with pytest.raises(ValueError, match='cleaner: unknown cleaner "nope"'):
        docview.Extractor("nope")
    with pytest.raises(ValueError, match='format: unknown format "md"'):
        docview.Extractor().extract("<p>x</p>", format="md")


def test_bytes_that_are_no_page_name_the_input():
    with pytest.raises(docview.ArgumentError, match=r"^http://a\.example/x: empty page: no bytes to parse$"):
        docview.extract(b"  \n", "http://a.example/x")
    with pytest.raises(ValueError, match=r"^<html>: binary data, not an HTML page"):
        docview.extract(b"\x89PNG\r\n\x1a\n\0\0\0\0")


def test_html_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="html: expected str, bytes, bytearray or memoryview, not int"):
        docview.extract(42)


def test_a_missing_model_file_is_file_not_found(tmp_path):
    missing = tmp_path / "no-model.json"
    with pytest.raises(FileNotFoundError) as e:
        docview.Extractor("learned", missing)
    assert isinstance(e.value, docview.PathNotFoundError)
    assert e.value.filename == str(missing)
    assert str(missing) in str(e.value)
    # A model is for the learned cleaner only: the error says so.
    with pytest.raises(docview.DocviewError, match="a block model is for the learned cleaner"):
        docview.Extractor("framework", missing)


def test_an_extractor_without_the_classifier_gives_the_cleaners_type(page_by_file):
    extractor = docview.Extractor(classify=False)
    listing = page_by_file("harbor-gazette/index.html")
    got = extractor.extract(listing["bytes"], listing["url"])
    # A listing the cleaner kept as text: a hub only with the classifier (test above).
    assert got.page_type == got.cleaner_page_type == "topic"
    assert got.genre is None and got.subject is None
    article = page_by_file("lanting-news/library.html")
    alone = docview.extract(article["bytes"], article["url"])
    got = extractor.extract(article["bytes"], article["url"])
    assert got.text == alone.text and got.metadata == alone.metadata


def test_an_extractor_gives_what_extract_gives(page_by_file):
    page = page_by_file("lanting-news/library.html")
    extractor = docview.Extractor("learned", format="html")
    assert extractor.cleaner == "learned"
    assert extractor.format == "html"
    assert extractor.model is None
    assert repr(extractor) == 'Extractor(cleaner="learned", format="html")'
    got = extractor.extract(page["bytes"], page["url"])
    assert got.format == "html"
    alone = docview.extract(page["bytes"], page["url"], format="html")
    assert got.to_dict() == alone.to_dict()
    # The format of one call overrides the extractor's.
    assert extractor.extract(page["bytes"], page["url"], format="text").content == alone.text


def test_threads_sharing_an_extractor_give_what_one_thread_gives():
    pages = [((SAMPLES / p["file"]).read_bytes(), p["url"]) for p in sample_pages()]
    extractor = docview.Extractor()

    def clean(page):
        html, url = page
        got = extractor.extract(html, url, format="json", blocks=True)
        return got.to_dict()

    one_thread = [clean(p) for p in pages]
    # Each of 4 threads cleans every page, in its own order, at once.
    barrier = threading.Barrier(4)

    def worker(shift):
        barrier.wait()
        order = pages[shift:] + pages[:shift]
        results = [clean(p) for p in order]
        return results[len(pages) - shift:] + results[:len(pages) - shift]

    with ThreadPoolExecutor(4) as pool:
        per_thread = list(pool.map(worker, [0, 9, 17, 26]))
    for results in per_thread:
        assert results == one_thread


def test_the_gil_is_released_while_a_page_is_cleaned(page_by_file):
    # While one thread cleans a big page, another Python thread keeps running: it could not if
    # the cleaning held the GIL.
    page = page_by_file("harbor-gazette/index.html")
    extractor = docview.Extractor()
    # A page big enough to take a while on this machine, however fast (within the page limit):
    # a cleaning that held the GIL would leave the ticker no turn during it at all.
    copies = 100
    big = page["bytes"] * copies
    while True:
        started = time.perf_counter()
        extractor.extract(big)
        if time.perf_counter() - started >= 0.05 or len(big) * 2 > 6 << 20:
            break
        copies *= 2
        big = page["bytes"] * copies
    done = threading.Event()
    ticks = []

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            done.wait(0.0005)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        time.sleep(0.01)
        start = time.perf_counter()
        extractor.extract(big)
        end = time.perf_counter()
    finally:
        done.set()
        t.join()
    during = [x for x in ticks if start < x < end]
    assert len(during) >= 5, (len(during), end - start)


def test_module_constants():
    assert docview.CLEANERS[0] == docview.DEFAULT_CLEANER == "learned"
    assert "wisdom" in docview.CLEANERS
    assert docview.FORMATS == ("text", "markdown", "html", "json")
    assert docview.__version__.count(".") == 2
    assert Path(docview.__file__).name == "__init__.py"


def test_favor_moves_the_learned_cleaners_bars(page_by_file):
    page = page_by_file("fieldnotes/dawn-chorus.html")
    headline = "What the dawn chorus is actually saying"
    got = {f: docview.extract(page["bytes"], page["url"], favor=f).text for f in ("precision", "balanced", "recall")}
    assert got["balanced"] == docview.extract(page["bytes"], page["url"]).text
    assert [got[f].count(headline) for f in ("precision", "balanced", "recall")] == [0, 1, 2]
    assert len(got["precision"].split()) < len(got["balanced"].split()) < len(got["recall"].split())
    extractor = docview.Extractor(favor="precision")
    assert extractor.favor == "precision"
    assert docview.Extractor().favor == "balanced"
    assert extractor.extract(page["bytes"], page["url"]).text == got["precision"]
    with pytest.raises(docview.ArgumentError, match=r'favor: unknown setting "exact" \(known: precision, balanced, recall\)'):
        docview.extract("<p>x</p>", favor="exact")
    with pytest.raises(ValueError, match='favor: unknown setting "most"'):
        docview.Extractor(favor="most")


def test_an_extraction_pickles_and_crosses_processes(page_by_file):
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    page = page_by_file("fieldnotes/moths.html")
    got = docview.extract(page["bytes"], page["url"], format="markdown", blocks=True)
    back = pickle.loads(pickle.dumps(got))
    assert type(back) is docview.Extraction
    assert back.to_dict() == got.to_dict()
    assert repr(back) == repr(got)
    # What a ProcessPoolExecutor does: the call in another process, its result pickled back.
    with ProcessPoolExecutor(max_workers=1) as pool:
        there = pool.submit(docview.extract, page["bytes"], page["url"]).result()
    assert there.to_dict() == docview.extract(page["bytes"], page["url"]).to_dict()


def test_bytes_bytearray_and_memoryview_give_the_same_page(page_by_file):
    page = page_by_file("fieldnotes/moths.html")
    want = docview.extract(page["bytes"], page["url"]).to_dict()
    for html in (bytearray(page["bytes"]), memoryview(page["bytes"]), memoryview(bytearray(page["bytes"]))):
        assert docview.extract(html, page["url"]).to_dict() == want, type(html)
    with pytest.raises(TypeError, match="str, bytes, bytearray or memoryview, not int"):
        docview.extract(12)


def test_bad_arguments_are_argument_errors(page_by_file, tmp_path):
    page = page_by_file("fieldnotes/moths.html")
    with pytest.raises(docview.ArgumentError, match='charset: unknown charset "nonsense"'):
        docview.extract(page["bytes"], charset="nonsense")
    # A label as a Content-Type gives it is known.
    assert docview.extract(page["bytes"], charset="UTF-8").text
    for kwargs, message in [
        ({"max_page_mb": 0}, "max_page_mb: expected a whole number of at least 1, not 0"),
        ({"max_page_tags": -5}, "max_page_tags: expected a whole number of at least 1, not -5"),
    ]:
        with pytest.raises(docview.ArgumentError, match=message):
            docview.extract(page["bytes"], **kwargs)
        with pytest.raises(docview.ArgumentError, match=message):
            docview.Extractor(**kwargs)
    with pytest.raises(docview.ArgumentError, match="threads: expected a whole number of at least 0, not -1"):
        docview.ingest(str(SAMPLES / "sites"), tmp_path / "out", threads=-1)
    with pytest.raises(docview.ArgumentError, match="progress: expected a callable, not int"):
        docview.ingest(str(SAMPLES / "sites"), tmp_path / "out", progress=3)
    assert not (tmp_path / "out").exists()


def test_page_limits_cut_a_page_as_the_command_does(page_by_file):
    page = page_by_file("fieldnotes/moths.html")
    whole = docview.extract(page["bytes"], page["url"])
    assert whole.truncated is None
    cut = docview.extract(page["bytes"], page["url"], max_page_tags=20)
    assert cut.truncated is not None and "20 elements" in cut.truncated, cut.truncated
    assert docview.Extractor(max_page_tags=20).extract(page["bytes"], page["url"]).truncated == cut.truncated


PRICES = (
    "<html><head><title>Prices</title></head><body><main><article><h1>Prices</h1>"
    "<p>Here are the prices of fruit in our shop this week, as listed by the grocer on the "
    '<a href="/board">board outside</a>, beside the stall <img src="/stall.jpg" '
    'alt="The stall"> on the square.</p><table><tr><th>Name</th><th>Price</th></tr>'
    "<tr><td>Apple</td><td>$1</td></tr><tr><td>Pear</td><td>2 EUR</td></tr></table>"
    "<p>Come early on Saturdays: the figs sell out before noon, and the pears soon after "
    "them, every week of the season.</p></article></main></body></html>"
)


def test_tables_links_and_images_can_be_left_out():
    url = "https://shop.example/prices"
    full = docview.extract(PRICES, url, format="markdown")
    assert "[board outside](https://shop.example/board)" in full.content
    assert "![The stall](https://shop.example/stall.jpg)" in full.content
    assert "| Apple | $1 |" in full.content
    bare = docview.extract(PRICES, url, format="markdown", tables=False, links=False, images=False)
    assert "the grocer on the board outside, beside the stall" in bare.content
    assert "](" not in bare.content and "Apple" not in bare.content
    assert "Come early on Saturdays" in bare.content
    # The plain text loses the table; an Extractor keeps what it was made with.
    assert "Apple" in docview.extract(PRICES, url).content
    extractor = docview.Extractor(tables=False)
    text = extractor.extract(PRICES, url).content
    assert "Apple" not in text and "Come early" in text
    assert "[board outside]" in extractor.extract(PRICES, url, format="markdown").content


THREAD = (
    "<html><head><title>The harbour wall</title></head><body><article><h1>The harbour wall</h1>"
    "<p>The harbour wall was mended this week after the winter storms broke it in two places, "
    "the council said on Tuesday evening at its meeting in the town hall.</p></article>"
    '<div id="comments" class="comments-area"><h2>2 thoughts on the harbour wall</h2>'
    '<ol class="comment-list"><li class="comment"><p>About time the wall was fixed, it has '
    'been broken since March.</p></li><li class="comment"><p>The new stones do not match the '
    'old ones at all.</p></li></ol><div id="respond" class="comment-respond"><h3>Leave a '
    "Reply</h3><p>Your email address will not be published.</p></div></div></body></html>"
)


def test_comments_come_as_their_own_field_when_asked_for():
    plain = docview.extract(THREAD)
    assert plain.comments is None and "About time" not in plain.text
    got = docview.extract(THREAD, comments=True)
    assert got.comments.startswith("2 thoughts on the harbour wall")
    assert "do not match the old ones" in got.comments
    assert "Leave a Reply" not in got.comments
    assert "About time" not in got.text and "harbour wall was mended" in got.text
    assert docview.Extractor(comments=True).extract(THREAD).comments == got.comments
    assert docview.Extractor().extract(THREAD).comments is None
    import pickle

    assert pickle.loads(pickle.dumps(got)).comments == got.comments
    assert got.to_dict()["comments"] == got.comments
