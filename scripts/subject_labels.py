#!/usr/bin/env python3
"""Build the subject (IPTC Media Topics, top level) training files under models/subjects/.

Usage:
    python3 scripts/subject_labels.py --corpus ../shared/corpus --out models/subjects [--sib200 DIR]

What it writes into --out:

  sections.tsv          lowercased declared section value <TAB> medtop code: every value declared by a corpus page
                        that the keyword tables below map, plus the table entries themselves (exact-lookup table)
  corpus-labels.jsonl   one line per corpus page that got a code (distant label from what the page declares about
                        its own section): {"set", "id", "subject", "lang", "via"}; ids only, no page text
  sib200.jsonl          only with --sib200: the SIB-200 sentences (English, German, Simplified Chinese) with their
                        topic mapped through <out>/sib200-topics.tsv: {"text", "subject", "lang", "split", "group"}

It reads --out/iptc-mediatopic.tsv (the 17 codes) and, with --sib200, --out/sib200-topics.tsv.
Python 3 standard library only, one process; the corpus pass takes about a minute. Output is sorted and does not
depend on file-system order, so a rerun on the same inputs gives identical files.

How a corpus page gets its label
--------------------------------
1. Extraction (what the page declares about itself; every source is kept separately):
     jsonld_section        JSON-LD articleSection at any depth (also inside @graph and lists)
     meta_article_section  <meta property|name="article:section"> (and og:article:section)
     meta_og_section       <meta property|name="og:section">
     meta_section          <meta name="section"> (also parsely-section, category, article.section, sailthru.section,
                           dcterms.subject)
     jsonld_breadcrumb     JSON-LD BreadcrumbList item names in position order
     html_breadcrumb       items of the first element whose class/id contains "breadcrumb" (or itemtype BreadcrumbList)
     url_path              first path segment followed by more path (generic segments such as /news/ /en/ skipped),
                           plus the next one when it looks like a subsection (/news/world/middle_east/... gives both)
     subdomain             first host label when the host has one beyond the registered domain (not www, m, amp, ...)
     html_location         like html_breadcrumb for class/id crumb(s), location, curpos, nav_path, weizhi, dqwz
                           (the Chinese "当前位置: 首页 > 财经频道 > ..." bars); noisy on English pages, so used last
   Breadcrumb items that mean "home" are dropped, and so are headline-like items (over 40 characters, over 14 CJK
   characters, or contained in the page title). Menus (containers of over 200 characters or over 8 items) are ignored.
   Values over 100 characters and values that are URLs are not section names and are dropped.
   The page URL is the ground truth's "url", else <link rel=canonical>, else og:url.
   Language: the ground truth's "language", else readability_meta.lang (readability set), else "en" for wcxb and
   dragnet (English sets), "zh" for the zh sets, else <html lang>, else "unknown".
2. Mapping (map_value): a lowercased value maps to a code by, in this order,
     NEVER      generic or unmappable values (news, blog, world, opinion, products, forums, ...) stay unmapped;
     PHRASES    multi-word phrases anywhere in the value (real estate, machine learning, natur umwelt, ...);
     CJK        substrings for Chinese, Japanese and Korean values, longest first (财经, 证券, 体育, ...);
     TOKENS     the first token, left to right, that is in the keyword table (a hyphenated token is tried whole,
                then in parts).
3. The page's label is the first value that maps, taking the sources in the order of PRIORITY.
"""
import argparse
import collections
import csv
import glob
import gzip
import json
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

# ---------------------------------------------------------------------------------------------------------------------
# Codes
# ---------------------------------------------------------------------------------------------------------------------

ART, CRIME, DISASTER, ECONOMY, EDUCATION, ENVIRONMENT, HEALTH, HUMAN, LABOUR, LIFESTYLE, POLITICS, RELIGION, SCIENCE, \
    SOCIETY, SPORT, CONFLICT, WEATHER = ['medtop:%02d000000' % i for i in range(1, 18)]

# Fashion, clothing, footwear, jewellery and watches (most of them shop departments and style magazines' sections).
# IPTC's own tree puts "fashion" (medtop:20000011, "styles and
# trends in clothing, footwear, accessories", with "jewellery" below it) under arts and entertainment (medtop:20000002,
# top level 01000000), and docview follows the IPTC tree.
FASHION = ART

# ---------------------------------------------------------------------------------------------------------------------
# Mapping tables
# ---------------------------------------------------------------------------------------------------------------------

# Values that stay unmapped even when a token would match: genre, navigation, site structure, geography.
NEVER = {
    'news', 'home', 'article', 'articles', 'blog', 'blogs', 'world', 'world news', 'international', 'opinion',
    'comment is free', 'commentisfree', 'latest', 'latest news', 'latest-news', 'features', 'section', 'uncategorized',
    'general', 'other', 'main', 'local', 'nation', 'ausland', 'inland', 'nachrichten', 'meinung', 'debatte',
    'gastkommentar', 'monde', 'nyheter', 'fréttir', 'frettir', 'innlent', 'binnenland', 'мир', 'gündem', 'gundem',
    'ニュース', '国際', '国内新闻', '国际', '要闻', '新闻', '新闻中心', '资讯', '뉴스', 'ข่าว', 'tin tức', 'izindaba',
    'zinas', 'noticias', 'noticia', 'aktuelles', 'hintergründe', 'hintergruende', 'enjeux internationaux',
    'enjeux-internationaux',
    'us & canada', 'u.s.', 'europe', 'asia', 'africa', 'rest of world', 'worldviews', 'worldnews', 'usnews', 'uknews',
    'in pictures', 'slideshow', 'galleries', 'video', 'videos', 'interviews', 'press release', 'press-release',
    'press announcements', 'newsroom', 'news-room', 'news & events', 'news & insights', 'insights', 'reviews', 'guides',
    'guide', 'how to', 'how-to', 'how-tos', "how to's", 'tips', 'resources', 'products', 'product', 'shop', 'store',
    'services', 'forums', 'forum', 'community', 'docs', 'documentation', 'wiki', 'learn', 'help', 'support',
    'safety and health topics', 'media indonesia', 'ace hardware', 'fasteners & hardware', 'cafe society',
    # shop departments and site or brand names that a keyword would otherwise catch
    'travel essentials', 'mine safety and health materials', 'shoe bank',
}

# Multi-word phrases, matched anywhere in the value after punctuation is turned into spaces; the longest phrase wins.
PHRASES = {
    # English
    'human interest': HUMAN, 'odd news': HUMAN, 'celeb news': HUMAN, 'celebrity news': HUMAN, 'red carpet': HUMAN,
    'real estate': ECONOMY, 'small business': ECONOMY, 'personal finance': ECONOMY, 'index funds': ECONOMY,
    'stock market': ECONOMY, 'market sectors': ECONOMY, 'international business': ECONOMY, 'business news': ECONOMY,
    'market research': ECONOMY, 'social media marketing': ECONOMY, 'internet marketing': ECONOMY,
    'cloud stocks': ECONOMY, 'project management': ECONOMY,
    'national security': POLITICS, 'big government': POLITICS, 'briefing room': POLITICS,
    'the administration': POLITICS, 'the caucus': POLITICS,
    'research and innovation': SCIENCE, 'information technology': SCIENCE, 'artificial intelligence': SCIENCE,
    'machine learning': SCIENCE,
    'web design': SCIENCE, 'mobile app': SCIENCE, 'smart home': SCIENCE, 'graphics cards': SCIENCE,
    'video graphics': SCIENCE, 'consumer electronics': SCIENCE, 'social media': SCIENCE, 'social networks': SCIENCE,
    'weight loss': HEALTH, 'weight management': HEALTH, 'mental health': HEALTH, 'public health': HEALTH,
    'lung cancer': HEALTH, 'patient education': HEALTH,
    'climate change': ENVIRONMENT, 'wind power': ENVIRONMENT, 'eco friendly': ENVIRONMENT,
    'natural resources': ENVIRONMENT,
    'video games': LIFESTYLE, 'home and garden': LIFESTYLE, 'home garden': LIFESTYLE, 'food and drink': LIFESTYLE,
    'eat and drink': LIFESTYLE, 'eat drink': LIFESTYLE, 'bed and breakfasts': LIFESTYLE, 'bed breakfasts': LIFESTYLE,
    'air travel': LIFESTYLE, 'electronic arts': LIFESTYLE, 'gps watches': LIFESTYLE, 'pet health': LIFESTYLE,
    'war thunder': LIFESTYLE, 'storage organization': LIFESTYLE, 'fire pits': LIFESTYLE,
    'coins paper money': LIFESTYLE,
    'legal aid': CRIME, 'crime safety': CRIME,
    'accidents incidents': DISASTER,
    'world military': CONFLICT,
    'education family': EDUCATION, 'online learning': EDUCATION, 'executive education': EDUCATION,
    'certificate programs': EDUCATION,
    'premier league': SPORT, 'match report': SPORT, 'mehr sport': SPORT, 'zahraniční ligy': SPORT, 'formula 1': SPORT,
    'fórmula 1': SPORT,
    'pop culture': ART, 'entertainment arts': ART,
    'people management': LABOUR,
    # German
    'natur umwelt': ENVIRONMENT, 'internationale politik': POLITICS,
    # Vietnamese
    'sức khỏe': HEALTH,
}

# Single keywords, per code (English first, then German, French, Spanish, Portuguese and others).
TOKENS = {
    ART: 'arts art culture entertainment movies movie films film cinema music albums tv television streaming anime '
         'books literature fiction filmdrunk theater theatre photography documentaries media mediawire '
         'newsgathering kultur feuilleton cultura culturas',
    CRIME: 'crime crimes law laws legal justice court courts police legalplanet recht justiz kriminalität polizei',
    DISASTER: 'disaster disasters accident accidents emergency emergencies unglück unglücke katastrophe',
    ECONOMY: 'business economy economics economic economix finance finances financial money markets market stock '
             'stocks usstock investing investment investments investor insurance mortgage banking bank accounting tax '
             'marketing seo ecommerce retail startups startup smallbusiness consulting dealbook entrepreneur '
             'entrepreneurs wirtschaft finanzen geld börse boerse économie economía economia ekonomi retirement '
             'politicsandfinance commerce crm',
    EDUCATION: 'education educational teaching teacher teachers school schools students student college colleges '
               'university universities academics admissions degrees courses tutoring scholarship bildung '
               'schule hochschule éducation educación',
    ENVIRONMENT: 'environment environmental climate sustainability green conservation umwelt klima treehugger '
                 'emissions',
    HEALTH: 'health healthcare medical medicine nutrition nutritionsource diets diet pediatrics dental oral-health '
            'drugs covid cancer pharma disease diseases patients vitals gesundheit santé salud healthfocus mhealth '
            'behavioral-health',
    HUMAN: 'celebrity celebrities celeb bodyodd offbeat weird panorama vermischtes people',
    LABOUR: 'careers career jobs job employment remote-jobs karriere labour labor unions hr self-employed',
    LIFESTYLE: 'lifestyle life leben living life-style travel travels reise reisen trip trips tourism vacations cruise '
               'airfare hotels food recipes recipe cooking eat drink dining restaurant restaurants coffee wine garden '
               'gardening houseplants diy crafts woodworking sewing decor interiors furniture pets dog dogs games '
               'gaming tabletop chess hobby hobbies outdoor outdoors hiking camping backpacking weddings wedding '
               'holidays thanksgiving entertaining beauty beauty-blog skincare skin fragrance wellness fitness '
               'workouts exercise meditation self-improvement reiseblog eat_drink eats barbecue bbq sofas drinkware '
               'mugs foodwishes everydayfoodblog collectibles collectibles-art',
    POLITICS: 'politics political politicalticker politique política politica politik innenpolitik government '
              'elections election thecaucus',
    RELIGION: 'religion religious faith church kirche spirituality',
    SCIENCE: 'technology technologies tech science sciences sciencenow software hardware internet computing '
             'computers computer ai programming developer developers javascript python linux unix cloud aws azure '
             'kubernetes docker api apis css html blockchain cybersecurity security gadgets cool-gadgets electronics '
             'consumer_electronics laptops smartphones smartphone iphone ipad tablets apple microsoft android ios mac '
             'macbook headphones earbuds monitors keyboards mice gpus gpu components cameras camera lenses projectors '
             'vpn iot engineering biotech physics astronomy space badastronomy physicsandphysicists wissen '
             'wissenschaft technik digital ciencia tecnología tecnologia cognition',
    SOCIETY: 'society social gesellschaft sociedad société samfund family parenting adoption immigration activism '
             'welfare',
    SPORT: 'sport sports football fußball fussball fotbal soccer nfl nba golf tennis olympia olympics deportes esporte '
           'cycling running climbing kayaking watersports sportschau profootballtalk espn spor',
    CONFLICT: 'war military defence defense conflict difesa',
    WEATHER: 'weather wetter météo',
}

# Chinese, Japanese and Korean: substrings, longest first.
CJK = {
    '经济与管理': ECONOMY, '市场营销': ECONOMY, '财经': ECONOMY, '经济': ECONOMY, '証券': ECONOMY, '证券': ECONOMY,
    '股票': ECONOMY, '港股': ECONOMY, '美股': ECONOMY, '基金': ECONOMY, '期货': ECONOMY, '金融': ECONOMY,
    '商业': ECONOMY, '产经': ECONOMY, '宏观': ECONOMY, '理财': ECONOMY, '银行': ECONOMY, '房产': ECONOMY,
    '経済': ECONOMY, '경제': ECONOMY, '기업': ECONOMY,
    '科技': SCIENCE, '科学': SCIENCE, '数码': SCIENCE, '互联网': SCIENCE, '手机': SCIENCE, '探索者': SCIENCE,
    '体育': SPORT, '足球': SPORT, '篮球': SPORT, 'スポーツ': SPORT, '스포츠': SPORT,
    '娱乐': ART, '文化': ART, '读书': ART, '电影': ART, '音乐': ART, 'エンタメ': ART,
    '时尚': FASHION,
    '明星': HUMAN, '暖新闻': HUMAN,
    '健康': HEALTH, '医疗': HEALTH,
    '教育': EDUCATION,
    '军事': CONFLICT,
    '时政': POLITICS, '政治': POLITICS, '政务': POLITICS, '정치': POLITICS,
    '法治': CRIME, '法制': CRIME,
    '育儿': SOCIETY,      # not 社会/사회: on Chinese, Japanese and Korean sites that desk is crime, accidents, local news
    '旅游': LIFESTYLE, '美食': LIFESTYLE, '游戏': LIFESTYLE,
    '天气': WEATHER, '气象': WEATHER,
    '环保': ENVIRONMENT, '环境': ENVIRONMENT,
    '宗教': RELIGION,
    '灾害': DISASTER, '事故': DISASTER,
    '就业': LABOUR, '招聘': LABOUR, '职场': LABOUR,
}

# Kept apart from TOKENS so that FASHION can equal another code.
FASHION_TOKENS = ('fashion clothing womenswear menswear dresses footwear shoes sneakers boots jewelry jewellery '
                  'watches celebrity-style style-design fashion_style fashion-style mode')

TOKMAP = {w: FASHION for w in FASHION_TOKENS.split()}
for _code, _words in TOKENS.items():
    for _w in _words.split():
        assert TOKMAP.get(_w, _code) == _code, _w
        TOKMAP[_w] = _code
PHRASE_KEYS = sorted(PHRASES, key=lambda k: (-len(k), k))
CJK_KEYS = sorted(CJK, key=lambda k: (-len(k), k))
CJK_RE = re.compile(r'[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]')

# Sources in the order in which they decide a page's label.
PRIORITY = ['jsonld_section', 'meta_article_section', 'meta_og_section', 'meta_section', 'jsonld_breadcrumb',
            'html_breadcrumb', 'url_path', 'subdomain', 'html_location']


def norm(value):
    """Lowercase, unescape the two HTML entities seen in values, collapse white space."""
    value = value.lower().replace('&amp;', '&').replace('&#038;', '&')
    value = re.sub(r'[\ue000-\uf8ff\u200b-\u200d\ufeff]', '', value)     # private-use icons (Apple logo), zero-width
    return re.sub(r'\s+', ' ', value).strip()


def map_value(value):
    """Return the medtop code for a declared value, or None."""
    v = norm(value)
    if not v or v in NEVER:
        return None
    flat = ' ' + re.sub(r'[\s_\-/&+,:>|.·]+', ' ', v).strip() + ' '
    for p in PHRASE_KEYS:
        if ' ' + p + ' ' in flat:
            return PHRASES[p]
    if CJK_RE.search(v):
        for k in CJK_KEYS:
            if k in v:
                return CJK[k]
    for t in re.split(r"[\s/&+,:>|·]+", v):
        t = t.strip(".'\"()[]")
        if t in TOKMAP:
            return TOKMAP[t]
        for u in re.split(r'[\-_.]+', t):
            if u in TOKMAP:
                return TOKMAP[u]
    return None


# ---------------------------------------------------------------------------------------------------------------------
# Extraction
# ---------------------------------------------------------------------------------------------------------------------

META_KEYS = {
    'article:section': 'meta_article_section', 'og:article:section': 'meta_article_section',
    'og:section': 'meta_og_section',
    'section': 'meta_section', 'parsely-section': 'meta_section', 'article.section': 'meta_section',
    'category': 'meta_section', 'sailthru.section': 'meta_section', 'dcterms.subject': 'meta_section',
}

HOME_WORDS = {
    'home', 'homepage', 'home page', 'startseite', 'start', 'accueil', 'inicio', 'portada', '首页', '主页', '网易首页',
    '新浪首页', '首頁', 'főoldal', 'strona główna', 'hjem', 'forside', 'startsida', 'etusivu', 'ana sayfa', 'anasayfa',
    'trang chủ', 'главная', 'home »', 'homepage »', 'you are here:', 'you are here', '当前位置', '当前位置：', '您的位置',
    '您的位置：', '位置', '>', '»', '›', '/', '|',
}

GENERIC_SEGMENTS = {
    'news', 'en', 'de', 'fr', 'es', 'it', 'us', 'uk', 'au', 'ca', 'in', 'zh', 'cn', 'en-us', 'en-gb', 'de-de', 'story',
    'stories', 'article', 'articles', 'a', 'p', 'post', 'posts', 'blog', 'blogs', 'content', 'index', 'pages', 'page',
    'www', '_news', 'nachrichten', 'html', 'doc', 'docs', 'amp', 'web', 'site', 'sites', 'node', 'item', 'id',
    'detail', 'details', 'view', 's', 'go', 'live', 'entry', 'n', 'c', 'r', 'v', 'x',
}
SKIP_SUBDOMAINS = {'www', 'm', 'amp', 'mobile', 'www1', 'www2', 'en', 'de', 'edition', 'beta', 'wap', '3g'}

MAX_VALUE_CHARS = 100


def clean(s):
    return re.sub(r'\s+', ' ', s or '').strip()


def decode(raw, setname):
    """Decode page bytes: declared charset (first 8 KB), then UTF-8, then GB18030 for the zh sets, then cp1252."""
    if setname == 'fundus-dev':
        declared = 'utf-8'
    else:
        m = re.search(rb'charset\s*=\s*["\']?\s*([A-Za-z0-9_\-:.]+)', raw[:8000], re.I)
        declared = m.group(1).decode('ascii', 'ignore').lower() if m else None
        if declared in ('gb2312', 'gbk', 'gb_2312-80', 'x-gbk', 'gb18030'):
            declared = 'gb18030'
    for cs in (declared, 'utf-8', 'gb18030' if 'zh' in setname else None, 'cp1252'):
        if not cs:
            continue
        try:
            return raw.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
    return raw.decode('utf-8', 'replace')


class PageParser(HTMLParser):
    """Collects section metas, JSON-LD blocks, canonical/og:url, <html lang>, <title>, the first breadcrumb trail and
    the first location bar of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.metas = []              # (source, value)
        self.jsonld = []             # raw JSON-LD script texts
        self.canonical = None
        self.og_url = None
        self.html_lang = None
        self.title = ''
        self.breadcrumb = None       # items of the first breadcrumb container
        self.location = None         # items of the first location container
        self._in_title = False
        self._in_jsonld = False
        self._buf = []
        self._skip = 0               # depth inside script/style/noscript/template
        self._box_tag = None         # tag of the open breadcrumb/location container
        self._box_kind = None
        self._box_depth = 0
        self._box_items = []
        self._box_text = []
        self._item_tag = None        # open <a>/<li> inside the container
        self._item_depth = 0
        self._item_buf = []

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): (v or '') for k, v in attrs}
        if tag == 'html' and a.get('lang') and not self.html_lang:
            self.html_lang = a['lang']
        elif tag == 'meta':
            key = (a.get('property') or a.get('name') or a.get('itemprop') or '').strip().lower()
            if key in META_KEYS and clean(a.get('content')):
                self.metas.append((META_KEYS[key], clean(a.get('content'))))
            if key == 'og:url' and a.get('content'):
                self.og_url = a['content'].strip()
        elif tag == 'link':
            if 'canonical' in a.get('rel', '').lower() and a.get('href') and not self.canonical:
                self.canonical = a['href'].strip()
        if tag in ('script', 'style', 'noscript', 'template'):
            self._skip += 1
        if tag == 'script':
            if 'ld+json' in a.get('type', '').lower():
                self._in_jsonld = True
                self._buf = []
        elif tag == 'title' and not self.title:
            self._in_title = True
            self._buf = []
        if self._box_tag is None and self.breadcrumb is None:
            cid = (a.get('class', '') + ' ' + a.get('id', '')).lower()
            is_bc = 'breadcrumb' in cid or 'breadcrumblist' in a.get('itemtype', '').lower()
            is_loc = (not is_bc and self.location is None and tag in ('div', 'p', 'span', 'ul', 'nav', 'td')
                      and re.search(r'(?<![a-z])(crumbs?|location|curpos|nav_?path|weizhi|dqwz)(?![a-z])', cid))
            if is_bc or is_loc:
                self._box_tag = tag
                self._box_kind = 'breadcrumb' if is_bc else 'location'
                self._box_depth = 1
                self._box_items = []
                self._box_text = []
        elif self._box_tag is not None:
            if tag == self._box_tag:
                self._box_depth += 1
            if self._item_tag is None and tag in ('a', 'li'):
                self._item_tag = tag
                self._item_depth = 1
                self._item_buf = []
            elif self._item_tag == tag:
                self._item_depth += 1

    def handle_endtag(self, tag):
        if tag in ('script', 'style', 'noscript', 'template') and self._skip > 0:
            self._skip -= 1
        if tag == 'script' and self._in_jsonld:
            self.jsonld.append(''.join(self._buf))
            self._in_jsonld = False
        if tag == 'title' and self._in_title:
            self.title = clean(''.join(self._buf))
            self._in_title = False
        if self._box_tag is not None:
            if self._item_tag == tag:
                self._item_depth -= 1
                if self._item_depth <= 0:
                    t = clean(''.join(self._item_buf))
                    if t:
                        self._box_items.append(t)
                    self._item_tag = None
            if tag == self._box_tag:
                self._box_depth -= 1
                if self._box_depth <= 0:
                    self.close_box()

    def close_box(self):
        """Finish the open breadcrumb/location container (also called at the end of a page left open)."""
        if self._box_tag is None:
            return
        items = self._box_items
        text = clean(''.join(self._box_text))
        if len(text) > 200 or len(items) > 8:
            items = []                   # a navigation menu or a header, not a trail
        elif not items:
            items = [clean(x) for x in re.split(r'\s*(?:>|»|›|→|/|\||＞|&gt;)\s*', text) if clean(x)]
        self._box_tag = None
        self._item_tag = None
        if items:
            if self._box_kind == 'breadcrumb':
                self.breadcrumb = items
            elif self.location is None:
                self.location = items

    def handle_data(self, data):
        if self._in_jsonld or self._in_title:
            self._buf.append(data)
        if self._box_tag is not None and self._skip == 0:
            self._box_text.append(data)
            if self._item_tag is not None:
                self._item_buf.append(data)


def parse_jsonld(text):
    text = text.strip()
    if text.startswith('<!--'):
        text = text[4:]
    if text.endswith('-->'):
        text = text[:-3]
    text = text.strip().rstrip(';')
    for t in (text, re.sub(r'[\x00-\x1f]', ' ', text)):
        try:
            return json.loads(t)
        except ValueError:
            continue
    return None


def _position(item):
    try:
        return int(item.get('position', 0))
    except (TypeError, ValueError):
        return 0


def walk_jsonld(obj, sections, crumbs, depth=0):
    """Collect articleSection values (any depth) and BreadcrumbList name lists."""
    if depth > 12:
        return
    if isinstance(obj, list):
        for x in obj:
            walk_jsonld(x, sections, crumbs, depth + 1)
        return
    if not isinstance(obj, dict):
        return
    types = obj.get('@type')
    types = types if isinstance(types, list) else [types]
    if 'BreadcrumbList' in [str(t) for t in types]:
        items = obj.get('itemListElement') or []
        if isinstance(items, dict):
            items = [items]
        names = []
        for it in sorted([i for i in items if isinstance(i, dict)], key=_position):
            n = it.get('name')
            if not n and isinstance(it.get('item'), dict):
                n = it['item'].get('name')
            if isinstance(n, str) and clean(n):
                names.append(clean(n))
        if names:
            crumbs.append(names)
    for k, v in obj.items():
        if k == 'articleSection':
            for s in (v if isinstance(v, list) else [v]):
                if isinstance(s, str) and clean(s):
                    sections.append(clean(s))
        elif isinstance(v, (dict, list)):
            walk_jsonld(v, sections, crumbs, depth + 1)


def crumb_items(names, title):
    """Drop home-like and headline-like items of a breadcrumb trail."""
    out = []
    for n in names:
        n = clean(n).strip(' >»›|/:：')
        if not n:
            continue
        low = n.lower()
        if low in HOME_WORDS or low.rstrip('：:') in HOME_WORDS:
            continue
        cjk = sum(1 for ch in n if '\u4e00' <= ch <= '\u9fff')
        if len(n) > 40 or (cjk and len(n) > 14):
            continue
        if title and len(n) > 12 and low in title.lower():
            continue
        out.append(n)
    return out


def url_sections(url):
    """Section-like path segments and the subdomain of a URL."""
    if not url:
        return [], []
    try:
        sp = urlsplit(url)
        host = (sp.hostname or '').lower()
    except ValueError:
        return [], []
    segs = [unquote(s) for s in sp.path.split('/') if s]
    paths = []
    for i, s in enumerate(segs[:-1][:3]):          # a segment must be followed by more path
        low = s.lower()
        if re.fullmatch(r'[\d_\-.]+', low) or '.' in low or len(low) > 30 or low.count('-') > 2:
            break
        if not re.search(r'[a-zà-ÿ\u4e00-\u9fff]', low):
            break
        if low in GENERIC_SEGMENTS or len(low) <= 2:
            continue
        paths.append(low)
        if i + 1 < len(segs) - 1:                   # one more when it looks like a subsection
            nxt = segs[i + 1].lower()
            if re.fullmatch(r'[a-z][a-z\-]{2,24}', nxt) and nxt.count('-') <= 1 and nxt not in GENERIC_SEGMENTS:
                paths.append(nxt)
        break
    subs = []
    labels = host.split('.')
    n_reg = 3 if (len(labels) >= 3 and labels[-2] in ('com', 'co', 'net', 'org', 'gov', 'ac', 'edu')
                  and len(labels[-1]) == 2) else 2
    if len(labels) > n_reg:
        if labels[0] not in SKIP_SUBDOMAINS:
            subs.append(labels[0])
        elif len(labels) > n_reg + 1 and labels[1] != 'www':
            subs.append(labels[1])
    return paths, subs


def page_language(setname, gt, parser):
    lang = gt.get('language')
    if not lang and setname == 'readability-dev':
        lang = (gt.get('readability_meta') or {}).get('lang')
    if not lang:
        if setname in ('wcxb-dev', 'dragnet-dev'):
            lang = 'en'
        elif 'zh' in setname:
            lang = 'zh'
        else:
            lang = parser.html_lang or ''
    return (lang or 'unknown').split('-')[0].split('_')[0].lower() or 'unknown'


def usable(value):
    """A declared value that can be a section name: short, and not a URL."""
    return len(value) <= MAX_VALUE_CHARS and not re.match(r'(?i)(https?:)?//', value)


def extract_page(setdir, setname, pid):
    """Return (lang, sources) for one corpus page; sources = {source: [raw values in page order]}."""
    with open(os.path.join(setdir, 'ground-truth', pid + '.json'), encoding='utf-8') as f:
        gt = json.load(f)
    with gzip.open(os.path.join(setdir, 'html', pid + '.html.gz')) as f:
        html = decode(f.read(), setname)
    p = PageParser()
    try:
        p.feed(html)
        p.close()
    except Exception as e:                           # malformed markup: keep what was read
        print('parse error', setname, pid, e, file=sys.stderr)
    p.close_box()
    sections, crumbs = [], []
    for t in p.jsonld:
        obj = parse_jsonld(t)
        if obj is not None:
            walk_jsonld(obj, sections, crumbs)
    title = (gt.get('ground_truth') or {}).get('title') or p.title
    src = {}
    if sections:
        src['jsonld_section'] = sections
    jb = [x for c in crumbs for x in crumb_items(c, title)]
    if jb:
        src['jsonld_breadcrumb'] = jb
    for s, v in p.metas:
        src.setdefault(s, []).append(v)
    for key, items in (('html_breadcrumb', p.breadcrumb), ('html_location', p.location)):
        items = list(dict.fromkeys(crumb_items(items or [], title)))[:6]
        if items:
            src[key] = items
    url = gt.get('url') or p.canonical or p.og_url
    if url and url.startswith('/'):
        url = None
    paths, subs = url_sections(url)
    if paths:
        src['url_path'] = paths
    if subs:
        src['subdomain'] = subs
    src = {k: [v for v in dict.fromkeys(vs) if usable(v)] for k, vs in src.items()}
    return page_language(setname, gt, p), {k: vs for k, vs in src.items() if vs}


def label_page(sources):
    """First (source, normalised value, code) that maps, in PRIORITY order, else None."""
    for k in PRIORITY:
        for v in sources.get(k, []):
            code = map_value(v)
            if code:
                return k, norm(v), code
    return None


def corpus_pass(corpus):
    """Yield (set, id, lang, sources) for every page of every *-dev set, sorted."""
    for setdir in sorted(glob.glob(os.path.join(corpus, '*-dev'))):
        setname = os.path.basename(setdir)
        ids = sorted(os.path.basename(f)[:-len('.json')]
                     for f in glob.glob(os.path.join(setdir, 'ground-truth', '*.json')))
        for pid in ids:
            lang, sources = extract_page(setdir, setname, pid)
            yield setname, pid, lang, sources


# ---------------------------------------------------------------------------------------------------------------------
# SIB-200
# ---------------------------------------------------------------------------------------------------------------------

SIB_LANGS = [('en', 'eng_Latn'), ('de', 'deu_Latn'), ('zh', 'zho_Hans')]   # eng_14 gives the English 14-topic set
SPLITS = ('train', 'dev', 'test')


def read_sib(dirname):
    """{index_id: (split, category, text)} of one SIB-200 language directory (TSV with CSV quoting and a header)."""
    rows = {}
    for split in SPLITS:
        with open(os.path.join(dirname, split + '.tsv'), encoding='utf-8', newline='') as f:
            reader = csv.reader(f, delimiter='\t')
            if next(reader) != ['index_id', 'category', 'text']:
                raise SystemExit('unexpected header in %s/%s.tsv' % (dirname, split))
            for row in reader:
                if len(row) != 3 or row[0] in rows:
                    raise SystemExit('bad or repeated row in %s/%s.tsv: %r' % (dirname, split, row[:2]))
                rows[row[0]] = (split, row[1], row[2])
    return rows


def read_topics(path):
    """topic -> code (None for topics left out)."""
    topics = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            topic, code = line.rstrip('\n').split('\t')
            topics[topic] = None if code == '-' else code
    return topics


def sib_records(sibdir, topics, codes):
    """Build the sib200.jsonl records. If the 7-topic files agree with eng_14 on every index_id (same sentence, label
    compatible: science/technology = science or technology), every language gets eng_14's finer label and split via
    index_id (so a sentence and its translations share one split); otherwise each language keeps its own file."""
    eng14 = read_sib(os.path.join(sibdir, 'eng_14'))
    seven = {lang: read_sib(os.path.join(sibdir, d)) for lang, d in SIB_LANGS}
    coarse = {'science': 'science/technology', 'technology': 'science/technology'}
    aligned = set(seven['en']) == set(seven['de']) == set(seven['zh']) <= set(eng14)
    aligned = aligned and all(seven['de'][i][:2] == seven['zh'][i][:2] == seven['en'][i][:2] for i in seven['en'])
    aligned = aligned and all(coarse.get(eng14[i][1], eng14[i][1]) == seven['en'][i][1] for i in seven['en'])
    recs = []
    sources = [('en', eng14), ('de', seven['de']), ('zh', seven['zh'])] if aligned else list(seven.items())
    for lang, rows in sources:
        for iid, (split, cat, text) in rows.items():
            if aligned:
                split, cat = eng14[iid][0], eng14[iid][1]
                if lang == 'en' and iid in seven['en']:
                    text = seven['en'][iid][2]          # eng_14 lost the quotation marks of two sentences
            if cat not in topics:
                raise SystemExit('SIB-200 topic %r is not in sib200-topics.tsv' % cat)
            code = topics[cat]
            if code is None:
                continue
            if code not in codes:
                raise SystemExit('unknown code %s in sib200-topics.tsv' % code)
            recs.append({'text': text, 'subject': code, 'lang': lang, 'split': split, 'group': 'sib200-' + iid})
    recs.sort(key=lambda r: (r['lang'], int(r['group'][7:])))
    return recs, aligned


# ---------------------------------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------------------------------

def read_scheme(path):
    codes = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                code, label = line.rstrip('\n').split('\t')
                codes[code] = label
    return codes


def write_jsonl(path, recs):
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')


def count_table(recs, langs):
    """Markdown table of records per subject and language."""
    c = collections.Counter((r['subject'], r['lang'] if r['lang'] in langs else 'other') for r in recs)
    cols = list(langs) + (['other'] if any(l == 'other' for _, l in c) else [])
    out = ['| subject | ' + ' | '.join(cols) + ' | total |', '|---|' + '---:|' * (len(cols) + 1)]
    for code in sorted({s for s, _ in c}):
        row = [c[(code, l)] for l in cols]
        out.append('| %s | %s | %d |' % (code, ' | '.join(map(str, row)), sum(row)))
    tot = [sum(v for (s, l), v in c.items() if l == col) for col in cols]
    out.append('| all | %s | %d |' % (' | '.join(map(str, tot)), sum(tot)))
    return '\n'.join(out)


SECTIONS_HEADER = """\
# Declared section value -> IPTC Media Topic (top level), for pages that say which section they belong to.
# Use: take a value the page declares about itself (JSON-LD articleSection, <meta property="article:section">,
# og:section, <meta name="section|category|parsely-section">, JSON-LD or HTML breadcrumb items, a URL path
# segment or subdomain, a Chinese 当前位置 bar item), lowercase it, turn &amp; into &, collapse white space, and
# look it up here exactly. A value that is not listed is unmapped (no subject). The first source that maps wins,
# in the order given above. Columns: value<TAB>medtop code. Values: every value declared by a page of the docview
# evaluation corpora (*-dev) that the keyword tables map, plus the keyword table entries themselves.
# Generated by scripts/subject_labels.py (see its docstring for the tables); do not edit by hand.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--corpus', required=True, help='corpus directory holding the *-dev sets')
    ap.add_argument('--out', required=True, help='output directory (models/subjects)')
    ap.add_argument('--sib200', help='directory with SIB-200 eng_14, eng_Latn, deu_Latn, zho_Hans')
    args = ap.parse_args()

    codes = read_scheme(os.path.join(args.out, 'iptc-mediatopic.tsv'))
    used = set(TOKMAP.values()) | set(PHRASES.values()) | set(CJK.values())
    if len(codes) != 17 or not used <= set(codes):
        raise SystemExit('iptc-mediatopic.tsv does not hold the 17 codes used here')

    if args.sib200:
        topics = read_topics(os.path.join(args.out, 'sib200-topics.tsv'))
        recs, aligned = sib_records(args.sib200, topics, codes)
        write_jsonl(os.path.join(args.out, 'sib200.jsonl'), recs)
        print('sib200.jsonl: %d sentences; index_ids aligned with eng_14: %s' % (len(recs), aligned))
        print(count_table(recs, ['en', 'de', 'zh']))

    labels, values = [], set()
    n_pages = 0
    for setname, pid, lang, sources in corpus_pass(args.corpus):
        n_pages += 1
        for vs in sources.values():
            values.update(norm(v) for v in vs)
        hit = label_page(sources)
        if hit:
            src, value, code = hit
            labels.append({'set': setname, 'id': pid, 'subject': code, 'lang': lang, 'via': src + ':' + value})
    labels.sort(key=lambda r: (r['set'], r['id']))
    write_jsonl(os.path.join(args.out, 'corpus-labels.jsonl'), labels)

    table = {v: map_value(v) for v in values}
    for key in list(TOKMAP) + list(PHRASES) + list(CJK):
        table.setdefault(key, map_value(key))
    rows = sorted((v, c) for v, c in table.items() if c and '\t' not in v)
    with open(os.path.join(args.out, 'sections.tsv'), 'w', encoding='utf-8', newline='\n') as f:
        f.write(SECTIONS_HEADER)
        for v, c in rows:
            f.write('%s\t%s\n' % (v, c))
    print('corpus: %d pages, %d labelled; sections.tsv: %d values' % (n_pages, len(labels), len(rows)))
    print(count_table(labels, ['en', 'de', 'zh']))


if __name__ == '__main__':
    main()
