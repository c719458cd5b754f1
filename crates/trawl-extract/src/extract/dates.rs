//! Dates a reader sees: the publish or update date a page shows at its
//! head (under the headline, in the byline, "Last updated: Dec 12, 2025"),
//! read from the visible text in the common written forms of the languages
//! we meet, and dates in URLs (`/2025/09/04/`). Metadata (JSON-LD, `<meta>`)
//! says what a page's software recorded, which is often the first
//! publication while the page shows a later update; readers, and the
//! datasets built from what they see, go by the page. As htmldate does, a
//! date is only taken from a bounded part of the page and within a
//! plausible range of years.

use crate::extract::relative_dates as relative;
use crate::extract::written_dates::texts;
pub(crate) use crate::extract::written_dates::{find, in_url, latest_day, Day, Found, Order};
use crate::html::{Doc, NodeId, Tag};

/// What a shown date is, by the words just before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    /// "Updated", "Last modified", "Aktualisiert", "edited", …
    Updated,
    /// Any other label ("Published", "Posted on", "asked", a byline) or none.
    Published,
}

/// A date a page shows, what its label says it is, and whether it sits in
/// one of a run of like items (a teaser list, a news ticker, a thread's
/// posts): there it is an item's date, the page's only on a forum thread,
/// whose first post is the thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShownDate {
    pub day: Day,
    pub kind: Shown,
    pub listed: bool,
    /// Written so that another day-month order reads another day.
    pub ambiguous: bool,
    /// The `<time datetime>` element the date is written in, if any: its
    /// moment says the time of day the text leaves out.
    pub time: Option<NodeId>,
    /// The text node the date is written in.
    pub node: NodeId,
}

/// Words that say a date is an update, in the languages we meet.
const UPDATED: &[&str] = &[
    "updated",
    "update",
    "modified",
    "revised",
    "current as of",
    "aktualisiert",
    "geändert",
    "mis à jour",
    "mise à jour",
    "modifié",
    "actualizado",
    "actualización",
    "atualizado",
    "aggiornato",
    "bijgewerkt",
    "edited",
    "letzte änderung",
    "zuletzt bearbeitet",
    // A wiki's footer in its languages ("Diese Seite wurde zuletzt am …
    // geändert", "dernière modification … le …", "por última vez el …").
    "zuletzt am",
    "zuletzt geändert",
    "dernière modification",
    "por última vez",
    "ultima volta",
    "laatst bewerkt",
    "ostatnia edycja",
    "senast ändrad",
    "zaktualizowano",
    "uppdaterad",
    "opdateret",
    "oppdatert",
    "päivitetty",
    "обновлено",
    "оновлено",
    "aktualizováno",
    "aktualizované",
    "ažurirano",
    "frissítve",
    "güncellendi",
    "güncelleme",
    "actualizat",
    "actualitzat",
    "ενημερώθηκε",
    "diperbarui",
    "更新",
];

/// Words that say a date is not the page's: a member's join date beside a
/// post, a last visit, a copyright year's line.
const NOT_THE_PAGES: &[&str] = &[
    "joined",
    "member since",
    "registered",
    "last seen",
    "last visit",
    "last active",
    "mitglied seit",
    "registriert",
    "dabei seit",
    "inscrit",
    "miembro desde",
    "registrado",
    "iscritto",
    "lid sinds",
    "зарегистрирован",
    "на сайте с",
    "dołączył",
    "zarejestrowany",
    "registrován",
    "registriran",
    "kayıt tarihi",
    "注册时间",
    "注册于",
    "加入时间",
    // A blog's or a site's founding, shown beside its posts ("建立于:
    // 2004年10月6日" in a blog's sidebar).
    "建立于",
    "创建于",
    "成立于",
    "established",
    "founded",
];

/// Text characters (not whitespace) at most in an element that holds a
/// date by its name: a date, a byline, a meta line. trafilatura-eval date
/// 0.902 -> 0.907 (three WordPress posts whose `status-publish` article
/// made an event's day in the headline a date line); wcxb-dev and
/// multilingual-dev unchanged, and alike from 200 to 1,500.
const DATE_BOX_CHARS: u32 = 400;

/// Class, id or itemprop words of a small element that holds a date.
fn date_box(doc: &Doc, id: NodeId) -> bool {
    if matches!(doc.tag(id), Tag::Time) {
        return true;
    }
    // A post's whole `<article class="post status-publish">` is no date's
    // box, whatever its classes say.
    if doc.agg[id as usize].chars > DATE_BOX_CHARS {
        return false;
    }
    let words = |s: &str| {
        let s = s.to_ascii_lowercase();
        [
            "date", "time", "publish", "posted", "updated", "byline", "meta", "dateline",
        ]
        .iter()
        .any(|w| s.contains(w))
    };
    let (class, idv) = doc.class_id(id);
    class.is_some_and(words)
        || idv.is_some_and(words)
        || doc.attr(id, "itemprop").is_some_and(words)
}

/// Text characters read before the headline and after it for a shown date.
const BEFORE_HEADLINE: usize = 400;
const AFTER_HEADLINE: usize = 1_200;
/// Without a headline, the first characters of the page's text.
const NO_HEADLINE: usize = 1_500;

/// The dates shown at the head of the page, in order: the text around the
/// first `<h1>` (or the page's first text when it has none), where a date
/// is taken when an element around it is a date's (a `<time>`, a class or
/// itemprop naming a date, a byline or meta line) or its block is little
/// more than the date. `order` reads 09/05/2025.
pub(crate) fn shown(doc: &Doc, order: Order, fetched_at: Option<i64>) -> Vec<ShownDate> {
    let body = doc.body();
    let end = doc.end(body);
    let h1 = (body..end).find(|&id| doc.tag(id) == Tag::H1 && doc.is_element(id));
    // Start a little before the headline: walk back over text nodes.
    let mut first = body;
    if let Some(h) = h1 {
        let mut before = 0;
        let mut id = h;
        while id > body && before < BEFORE_HEADLINE {
            id -= 1;
            if !doc.is_element(id) {
                before += doc.text(id).len();
            }
        }
        first = id;
    }
    // The text nodes of the zone, and where the headline starts in it.
    let mut headline = None;
    let (text, at) = texts(doc, first, end, |len, id| {
        if Some(id) == h1 {
            headline = Some(len);
        }
        len <= match headline {
            Some(h) => h + AFTER_HEADLINE,
            None if h1.is_none() => NO_HEADLINE,
            None => usize::MAX,
        }
    });
    let (from, to) = match headline {
        Some(h) => (h.saturating_sub(BEFORE_HEADLINE), h + AFTER_HEADLINE),
        None => (0, NO_HEADLINE),
    };
    let mut found = scan(doc, &text, &at, (from, to), order, Reach::Head, fetched_at);
    // A date written in the headline ("Results: regional championship,
    // 19.5.2007") is its subject's day, an event's: the head's other
    // dates come first.
    if let Some(h) = h1 {
        let within = h..doc.end(h);
        found.sort_by_key(|s| within.contains(&s.node));
    }
    found
}

/// Text characters read for a date anywhere.
const ANYWHERE: usize = 100_000;

/// Words that say a date is the page's publication.
const PUBLISHED: &[&str] = &[
    "published",
    "posted",
    "veröffentlicht",
    "publié",
    "publicado",
    "pubblicato",
    "gepubliceerd",
    "erschienen",
    "publiziert",
    "opublikowano",
    "publicerad",
    "publiceret",
    "publisert",
    "julkaistu",
    "publicat",
    "yayınlanma",
    "yayınlandı",
    "опубликовано",
    "опубліковано",
    "objavljeno",
    "publikováno",
    "zveřejněno",
    "publikované",
    "közzétéve",
    "δημοσιεύθηκε",
    "diterbitkan",
    "dipublikasikan",
    "公開",
    "掲載",
    "发布",
    "发表",
];

/// The first date a page shows anywhere in its first [`ANYWHERE`]
/// characters, in a date's element or a line of its own as at its head, or
/// after a label ("Last updated: …" in a footer, "Published …" in an author
/// box under the story): for pages that show none at their head and record
/// none.
/// With `boxed`, only a date in a date's element or after a label counts
/// (a line of its own far down a page is as often an offer's deadline or
/// an event's day).
pub(crate) fn anywhere(
    doc: &Doc,
    order: Order,
    fetched_at: Option<i64>,
    boxed: bool,
) -> Option<ShownDate> {
    let reach = if boxed { Reach::Boxed } else { Reach::Anywhere };
    let found = all_shown(doc, order, fetched_at, reach);
    // The publication when the page shows one ("Letzte Änderung: 31.10.2023
    // … Erschienen am: 01.11.2023"), else the first.
    let published = found.iter().position(|s| s.kind == Shown::Published);
    found.into_iter().nth(published.unwrap_or(0))
}

/// Whether the page shows `day` (`YYYY-MM-DD`) as a date of its own
/// anywhere in its first [`ANYWHERE`] characters, as [`anywhere`] reads
/// them: the test a recorded moment's local day must pass.
pub(crate) fn shows_day(doc: &Doc, order: Order, fetched_at: Option<i64>, day: &str) -> bool {
    all_shown(doc, order, fetched_at, Reach::Anywhere)
        .iter()
        .any(|s| s.day.iso() == day)
}

/// Every date the page shows as its own in its first [`ANYWHERE`]
/// characters, as `reach` says.
fn all_shown(doc: &Doc, order: Order, fetched_at: Option<i64>, reach: Reach) -> Vec<ShownDate> {
    let body = doc.body();
    let (text, at) = texts(doc, body, doc.end(body), |len, _| len <= ANYWHERE);
    scan(doc, &text, &at, (0, text.len()), order, reach, fetched_at)
}

/// The dates of `text[from..to]` (the text of the nodes in `at`) a page
/// shows as its own, as `reach` says ([`taken`] at the head); anywhere, also one after a
/// publication or update label.
fn scan(
    doc: &Doc,
    text: &str,
    at: &[(usize, NodeId)],
    (from, to): (usize, usize),
    order: Order,
    reach: Reach,
    fetched_at: Option<i64>,
) -> Vec<ShownDate> {
    let from = floor_char(text, from);
    let to = floor_char(text, to.min(text.len()));
    let mut found = find(&text[from..to], order);
    if let Some(now) = fetched_at {
        found.extend(relative::find(&text[from..to], now).into_iter().filter_map(
            |(days, range)| {
                Some(Found {
                    day: Day::from_days(days)?,
                    start: range.start,
                    end: range.end,
                    other: None,
                })
            },
        ));
        found.sort_by_key(|f| f.start);
    }
    let latest = latest_day(fetched_at);
    let mut out = Vec::new();
    for mut f in found {
        // No page shows its own date after it was fetched: the other
        // reading of 12/03/2026, or none.
        if f.day > latest {
            match f.other.filter(|o| *o <= latest) {
                Some(o) => (f.day, f.other) = (o, None),
                None => continue,
            }
        }
        let start = from + f.start;
        let k = match at.binary_search_by_key(&start, |(o, _)| *o) {
            Ok(i) => i,
            Err(0) => continue,
            Err(i) => i - 1,
        };
        let (node_start, node) = at[k];
        let before = text[floor_char(text, start.saturating_sub(40))..start].to_lowercase();
        // A quotation's date is its author's (an embedded post's).
        if not_the_pages(&before) || quoted(doc, node) {
            continue;
        }
        let label = nearest_label(&before)
            .or_else(|| {
                let previous = k.checked_sub(1).map(|j| at[j].0);
                date_pair(text, previous, node_start, start).then_some(Label::Published)
            })
            .or_else(|| published_after(text, from + f.end).then_some(Label::Published));
        // Far from the headline only a date's element, a line that is the
        // date or a label says a date is the page's.
        let len = f.end - f.start;
        let own = match reach {
            Reach::Head => {
                taken(doc, node, len, true)
                    || dateline(text, node_start, start, from + f.end)
                    || stamped(doc, node, text, from + f.end)
            }
            Reach::Anywhere => taken(doc, node, len, false) || label.is_some(),
            Reach::Boxed => in_date_box(doc, node) || label.is_some(),
        };
        if !own {
            continue;
        }
        let kind = if label == Some(Label::Updated) {
            Shown::Updated
        } else {
            Shown::Published
        };
        out.push(ShownDate {
            day: f.day,
            kind,
            listed: listed(doc, node, f.end - f.start, order),
            ambiguous: f.other.is_some(),
            time: time_around(doc, node),
            node,
        });
    }
    out
}

/// Levels above a date's text searched for its `<time>` element.
const TIME_LEVELS: usize = 3;

/// The `<time datetime>` element holding text node `node`, within
/// [`TIME_LEVELS`] levels.
fn time_around(doc: &Doc, node: NodeId) -> Option<NodeId> {
    let mut id = doc.nodes[node as usize].parent;
    for _ in 0..TIME_LEVELS {
        if id == u32::MAX {
            return None;
        }
        if doc.tag(id) == Tag::Time {
            return doc.attr(id, "datetime").map(|_| id);
        }
        id = doc.nodes[id as usize].parent;
    }
    None
}

/// What the words before a date say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Updated,
    Published,
}

/// Characters between a label of [`NOT_THE_PAGES`] and its date ("Joined:
/// Mon ", "Member since "): further on, the label is another line's.
const NOT_THE_PAGES_GAP: usize = 8;

/// Whether `before` (lower case) ends with a label of [`NOT_THE_PAGES`].
fn not_the_pages(before: &str) -> bool {
    NOT_THE_PAGES.iter().any(|w| {
        rfind(before, w).is_some_and(|at| before.len() - (at + w.len()) <= NOT_THE_PAGES_GAP)
    })
}

/// Where `word` last occurs in `text` (memchr's search: `str::rfind`
/// built a searcher per label word, per date found).
fn rfind(text: &str, word: &str) -> Option<usize> {
    memchr::memmem::rfind(text.as_bytes(), word.as_bytes())
}

/// The label nearest the end of `before` (lower case): "Posted May 1,
/// updated May 5" makes the second an update.
fn nearest_label(before: &str) -> Option<Label> {
    [(UPDATED, Label::Updated), (PUBLISHED, Label::Published)]
        .iter()
        .flat_map(|(words, label)| {
            words
                .iter()
                .filter_map(|w| rfind(before, w).map(|at| (at + w.len(), *label)))
        })
        .max_by_key(|(end, _)| *end)
        .map(|(_, label)| label)
}

/// Levels above a date's text searched for an item of a run.
const ITEM_LEVELS: usize = 10;

/// Characters besides the date that make an element an item (a headline,
/// a teaser), not a line of a byline's list ("By …", "May 5, 2025", "5 min").
const ITEM_MORE: usize = 12;

/// Whether a date (`len` bytes) in text node `node` is inside one of at
/// least three like siblings (same element, same first class) that each
/// show a date, and holds more than the date: an item of a list, a ticker
/// or a grid, not a byline's line (not a table's row or cell either: old
/// pages lay themselves out in tables).
fn listed(doc: &Doc, node: NodeId, len: usize, order: Order) -> bool {
    let body = doc.body();
    let mut id = doc.nodes[node as usize].parent;
    for _ in 0..ITEM_LEVELS {
        if id == u32::MAX || id <= body {
            return false;
        }
        let parent = doc.nodes[id as usize].parent;
        if parent == u32::MAX {
            return false;
        }
        let kind = |n: NodeId| {
            let class = doc.class_id(n).0.unwrap_or("");
            (doc.nodes[n as usize].name, class.split_whitespace().next())
        };
        // Rows and cells of a table are most often a layout's.
        if matches!(
            doc.tag(id),
            Tag::Tr | Tag::Td | Tag::Th | Tag::Tbody | Tag::Thead | Tag::Table
        ) {
            id = parent;
            continue;
        }
        let me = kind(id);
        let dated = doc
            .children(parent)
            .filter(|&c| doc.is_element(c) && kind(c) == me && shows_a_date(doc, c, order))
            .take(3)
            .count();
        if dated >= 3 && doc.agg[id as usize].chars as usize >= len + ITEM_MORE {
            return true;
        }
        id = parent;
    }
    false
}

/// Text read from an item for a date of its own.
const ITEM_TEXT: usize = 400;

/// Whether the first [`ITEM_TEXT`] bytes of element `id`'s text hold a date.
fn shows_a_date(doc: &Doc, id: NodeId, order: Order) -> bool {
    let mut text = String::new();
    for n in id..doc.end(id) {
        if text.len() >= ITEM_TEXT {
            break;
        }
        if !doc.is_element(n) {
            text.push_str(doc.text(n));
            text.push(' ');
        }
    }
    !find(&text, order).is_empty()
}

/// Where [`scan`] takes a date as the page's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// At the head: a date's element, or a line or block little more than the date.
    Head,
    /// Anywhere: a date's element, a line of its own, or after a label.
    Anywhere,
    /// Anywhere, but only a date's element or after a label.
    Boxed,
}

/// Whether an element within a few levels above text node `node` holds a
/// date by its name.
fn in_date_box(doc: &Doc, node: NodeId) -> bool {
    let mut id = doc.nodes[node as usize].parent;
    for _ in 0..4 {
        if id == u32::MAX {
            break;
        }
        if date_box(doc, id) {
            return true;
        }
        id = doc.nodes[id as usize].parent;
    }
    false
}

/// Whether a date in text node `node` is a date line's: in a date's
/// element ([`in_date_box`]), or the text node (or, with `block`, the
/// element around it) is mostly the date (`len` bytes).
fn taken(doc: &Doc, node: NodeId, len: usize, block: bool) -> bool {
    if in_date_box(doc, node) {
        return true;
    }
    // The text node, or the element around it, is little more than the date.
    let parent = doc.nodes[node as usize].parent;
    doc.text(node).trim().len() <= len + 12
        || (block && parent != u32::MAX && (doc.agg[parent as usize].chars as usize) <= len + 40)
}

/// Whether the date at `text[start..end]` opens its text node (from
/// `node_start`) and a dash, a bar or an opening quote follows it: a
/// dateline ("27.1.2022 - Bei der Erinnerung …", "01.02.2022 „Der
/// Arbeitsmarkt …"). A short lead may come first: a place or weekday and
/// a comma ("BERLIN, 25.01.2022 – …"), or a name of the piece and a word
/// for "of" ("Pressemitteilung vom 25. Januar 2022 | …"); a preposition
/// or an article first ("On 27.1.2022 - …", "The end of …") opens a
/// sentence, not a dateline.
fn dateline(text: &str, node_start: usize, start: usize, end: usize) -> bool {
    let lead = text.get(node_start..start).unwrap_or("x").trim();
    let after = text.get(end..).unwrap_or_default().trim_start();
    let words: Vec<&str> = lead.split_whitespace().collect();
    let short = lead.len() <= 40 && words.len() <= 4 && !lead.contains(['.', '!', '?', ';', ':']);
    // The piece's name is a noun, not an article or a preposition ("The
    // night of …", "On …").
    let named = words.len() >= 2
        && words[0].chars().count() > 3
        && words[0].starts_with(char::is_uppercase)
        && words
            .last()
            .is_some_and(|w| OF_WORDS.contains(&w.to_lowercase().as_str()));
    // After a lead, the story goes on in words: "Tuesday, December 26,
    // 2006 - 07:02 PM" is a masthead's clock.
    let words_follow = after
        .trim_start_matches(DATELINE_MARKS)
        .trim_start()
        .starts_with(char::is_alphabetic);
    let led = lead.is_empty() || (short && words_follow && (lead.ends_with(',') || named));
    led && after.starts_with(DATELINE_MARKS)
}

/// Characters after a date searched for a verb that says it was posted.
const VERB_AFTER: usize = 40;

/// Verbs that follow the date of a post in languages that put the verb
/// last ("本贴由 大卫 于2005年8月12日16:12:21在〖…〗发表", "2021年3月1日に公開").
const PUBLISHED_AFTER: &[&str] = &[
    "发表", "發表", "发布", "發佈", "公開", "掲載", "投稿", "게시",
];

/// Whether a publication verb follows the date ending at `text[end..]`
/// before the line's end.
fn published_after(text: &str, end: usize) -> bool {
    let rest = text.get(end..).unwrap_or_default();
    let cut = rest
        .char_indices()
        .nth(VERB_AFTER)
        .map_or(rest.len(), |(i, _)| i);
    let line = rest[..cut].split('\n').next().unwrap_or_default();
    PUBLISHED_AFTER.iter().any(|w| line.contains(w))
}

/// Most characters of the element around a date and its time of day for
/// the pair to be the page's stamp ([`stamped`]).
const STAMP_BLOCK: usize = 120;

/// Whether the date ending at `text[end..]` is followed by its time of day
/// (`2005-04-25 08:24:06`, `2005年8月12日16:12`) in a short element: the
/// moment a page was posted, in the line under its headline ("2005-04-25
/// 08:24:06　来源: 第一财经日报"), where no label says so and the line
/// holds more than the date.
fn stamped(doc: &Doc, node: NodeId, text: &str, end: usize) -> bool {
    let after = text.get(end..).unwrap_or_default();
    let after = after.trim_start_matches([' ', '\u{3000}', '\u{a0}', ',']);
    let b = after.as_bytes();
    let hour = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let timed = (1..=2).contains(&hour)
        && b.get(hour) == Some(&b':')
        && b.get(hour + 1..hour + 3)
            .is_some_and(|m| m.iter().all(u8::is_ascii_digit));
    let parent = doc.nodes[node as usize].parent;
    timed && parent != u32::MAX && (doc.agg[parent as usize].chars as usize) <= STAMP_BLOCK
}

/// What follows a dateline's date: a dash, a bar or an opening quote.
const DATELINE_MARKS: [char; 8] = ['-', '–', '—', '|', '„', '“', '«', '"'];

/// Words for "of" or "from" that end the name of a piece before its date
/// ("Pressemitteilung vom", "Press release of", "Communiqué du").
const OF_WORDS: &[&str] = &[
    "vom", "of", "from", "du", "del", "de", "van", "dal", "da", "do",
];

/// Words that label a value as the date ("Datum 25.01.2022" in a
/// document's facts).
const DATE_WORDS: &[&str] = &[
    "date",
    "datum",
    "fecha",
    "data",
    "dato",
    "päivämäärä",
    "tarih",
    "dátum",
    "tanggal",
    "ημερομηνία",
    "дата",
    "日期",
    "日付",
];

/// Whether the date at `text[start..]` is the value of a "Date" label: its
/// text node holds only the label before it ("Datum: 25.01.2022"), or it
/// opens its node and the previous text node (from `previous`) is the
/// label (`<span>Datum</span> <span>25.01.2022</span>`).
fn date_pair(text: &str, previous: Option<usize>, node_start: usize, start: usize) -> bool {
    let is_label = |s: &str| {
        let s = s.trim().trim_end_matches(':').trim_end().to_lowercase();
        DATE_WORDS.contains(&s.as_str())
    };
    let lead = text.get(node_start..start).unwrap_or("x");
    if !lead.trim().is_empty() {
        return is_label(lead);
    }
    previous
        .and_then(|p| text.get(p..node_start))
        .is_some_and(is_label)
}

/// Whether `id` sits in a quotation marked as one: a `<blockquote>` with a
/// class or a `cite` (an embedded post, a quote block). A bare one is as
/// often an old page's indentation.
pub(crate) fn quoted(doc: &Doc, id: NodeId) -> bool {
    let mut p = doc.nodes[id as usize].parent;
    while p != u32::MAX {
        if doc.tag(p) == Tag::Blockquote
            && (doc.attr(p, "class").is_some() || doc.attr(p, "cite").is_some())
        {
            return true;
        }
        p = doc.nodes[p as usize].parent;
    }
    false
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests;
