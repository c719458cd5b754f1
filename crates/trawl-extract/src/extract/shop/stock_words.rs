//! The words shops write a product's stock in: "In stock", "Ausverkauft",
//! "在庫切れ", a restock notice's "Notify me", "Only 3 left". The product
//! record's availability reads them from stock lines; the buy-box count
//! cart" was), and a page whose cart button a script draws by its one
//! stock line. Lower-cased; each starts a short element, never a
//! sentence's middle, past a label ("Availability:") and a noun ("Item").

use std::sync::LazyLock;

use super::phrases::Phrases;

/// [`OUT`], indexed by first byte.
pub(crate) static OUT_PHRASES: LazyLock<Phrases> = LazyLock::new(|| Phrases::new(OUT));
/// [`IN`], indexed by first byte.
pub(crate) static IN_PHRASES: LazyLock<Phrases> = LazyLock::new(|| Phrases::new(IN));
/// [`NOTIFY`], indexed by first byte.
pub(crate) static NOTIFY_PHRASES: LazyLock<Phrases> = LazyLock::new(|| Phrases::new(NOTIFY));

/// A stock line saying the product cannot be bought now.
pub(crate) const OUT: &[&str] = &[
    "out of stock",
    "sold out",
    "currently unavailable",
    "temporarily out of stock",
    "no longer available",
    "ausverkauft",
    "nicht verfügbar",
    "nicht lieferbar",
    "derzeit nicht",
    "épuisé",
    "en rupture",
    "rupture de stock",
    "indisponible",
    "agotado",
    "sin stock",
    "no disponible",
    "esaurito",
    "non disponibile",
    "uitverkocht",
    "niet op voorraad",
    "niet leverbaar",
    "slutsåld",
    "ej i lager",
    "udsolgt",
    "utsolgt",
    "loppuunmyyty",
    "brak w magazynie",
    "wyprzedane",
    "niedostępny",
    "vyprodáno",
    "esgotado",
    "indisponível",
    "нет в наличии",
    "在庫切れ",
    "売り切れ",
    "缺货",
    "已售罄",
    "售罄",
    "품절",
    // More languages, and the negations of IN's words.
    "nicht auf lager",
    "nicht vorrätig",
    "ikke på lager",
    "inte i lager",
    "ikke tilgjengelig",
    "niedostępne",
    "chwilowo niedostępny",
    "není skladem",
    "nie je skladom",
    "vypredané",
    "nema na zalihi",
    "nije dostupno",
    "rasprodano",
    "nincs készleten",
    "elfogyott",
    "nincs raktáron",
    "stoc epuizat",
    "indisponibil",
    "nu este în stoc",
    "stokta yok",
    "tükendi",
    "нет на складе",
    "распродано",
    "немає в наявності",
    "закінчився",
    "изчерпан",
    "няма наличност",
    "εξαντλήθηκε",
    "εξαντλημένο",
    "μη διαθέσιμο",
    "nedostupné",
    "nedostupný",
    "nedostupná",
    "išparduota",
    "stok habis",
    "hết hàng",
    "สินค้าหมด",
    "缺貨",
    "已售完",
    "售完",
    "在庫なし",
    "غير متوفر",
    "نفذت الكمية",
    "نفد من المخزون",
    "אזל מהמלאי",
    "לא במלאי",
    "ناموجود",
    "完売",
    "slut i lager",
    "tillfälligt slut",
    "midlertidigt udsolgt",
    "midlertidig utsolgt",
    "tijdelijk uitverkocht",
    "ei varastossa",
    "non disponible",
    "品切れ",
    "无货",
    "無貨",
    "재고 없음",
    "일시품절",
    // The languages the cart phrases gained (the Caucasus, the Baltics,
    // the Balkans, Iceland, Catalonia, East Africa, the Philippines) and
    // Arabic's other spelling.
    "ამოიწურა",
    "არ არის მარაგში",
    "uppselt",
    "ekki til á lager",
    "esgotat",
    "exhaurit",
    "распродадено",
    "нема на залиха",
    "распродато",
    "rasprodato",
    "nema na stanju",
    "razprodano",
    "ni na zalogi",
    "välja müüdud",
    "pole laos",
    "izpārdots",
    "nav noliktavā",
    "сатылып кетті",
    "қоймада жоқ",
    "stokda yoxdur",
    "սպառված է",
    "imeisha",
    "haipatikani",
    "ubos na",
    "wala nang stock",
    "نفدت الكمية",
];

/// A stock line saying the product is in stock.
pub(crate) const IN: &[&str] = &[
    "in stock",
    "available now",
    "ready to ship",
    // A dispatch promise for today or tomorrow: on the shelf.
    "ships today",
    "ships the same day",
    "ships same day",
    "ships tomorrow",
    "ships next day",
    "ships within 24 hours",
    "usually ships within 24 hours",
    "auf lager",
    "sofort lieferbar",
    "lieferbar",
    "vorrätig",
    "en stock",
    "disponible",
    "en existencia",
    "disponibile",
    "op voorraad",
    "i lager",
    "på lager",
    "varastossa",
    "w magazynie",
    "dostępny",
    "skladem",
    "em estoque",
    "в наличии",
    "在庫あり",
    "有货",
    "现货",
    "有現貨",
    "재고 있음",
    "na skladě",
    "skladom",
    "na zalihi",
    "dostupno",
    "készleten",
    "raktáron",
    "în stoc",
    "disponibil",
    "stokta var",
    "є в наявності",
    "в наявності",
    "налично",
    "σε απόθεμα",
    "διαθέσιμο",
    "stok tersedia",
    "tersedia",
    "còn hàng",
    "มีสินค้า",
    "有貨",
    "在庫有り",
    "متوفر",
    "במלאי",
    "موجود",
    "disponível",
    "in magazzino",
    "na stanie",
    "saatavilla",
    "現貨",
    "有庫存",
    "재고있음",
    "พร้อมส่ง",
];

/// A stock line saying the product can be ordered before release.
pub(crate) const PRE: &[&str] = &[
    "pre-order",
    "preorder",
    "vorbestellen",
    "vorbestellung",
    "précommande",
    "précommander",
    "preventa",
    "reserva",
    "予約",
    "预订",
    "预售",
    // More languages.
    "preordine",
    "pre-ordine",
    "voorbestellen",
    "voorbestelling",
    "pré-venda",
    "pré-encomenda",
    "przedsprzedaż",
    "předprodej",
    "предзаказ",
    "förhandsboka",
    "forhåndsbestill",
    "forudbestil",
    "ennakkotilaa",
    "ennakkotilaus",
    "ön sipariş",
    "예약판매",
    "예약 판매",
    "預購",
    "預售",
];

/// A restock notice: the page offers to tell the shopper when the product
/// is back ("Notify me when available", "Get notified by email when this
/// product is in stock"), so it is out of stock when nothing can be added to
/// the cart. Such a notice may be a sentence: it is read up to
/// the availability reader's notice bound.
pub(crate) const NOTIFY: &[&str] = &[
    "notify me",
    "get notified",
    "email me when",
    "e-mail me when",
    "alert me when",
    "tell me when",
    "let me know when",
    "benachrichtigen",
    "benachrichtige mich",
    "benachrichtigung bei verfügbarkeit",
    "e-mail bei verfügbarkeit",
    "me prévenir",
    "prévenez-moi",
    "m'avertir",
    "m'alerter",
    "avísame",
    "avisarme",
    "notificarme",
    "avvisami",
    "houd me op de hoogte",
    "mail mij",
    "meld mij",
    "bevaka",
    "giv mig besked",
    "powiadom mnie",
    "powiadom o dostępności",
    "hlídat dostupnost",
    "upozornit na dostupnost",
    "avise-me",
    "avisar quando",
    "сообщить о поступлении",
    "уведомить о поступлении",
    "повідомити про наявність",
    "gelince haber ver",
    "入荷お知らせ",
    "再入荷お知らせ",
    "入荷通知",
    "再入荷通知",
    "到货通知",
    "到貨通知",
    "补货通知",
    "재입고 알림",
    "입고 알림",
    "أعلمني عند التوفر",
    "أخبرني عند التوفر",
    "עדכנו אותי",
];

/// A line saying few are left: the product is in stock ("Only 3 left",
/// "Just a few left. Order soon!", "Nur noch 2 verfügbar").
pub(crate) const FEW_LEFT: &[&str] = &[
    "just a few left",
    "only a few left",
    "few left",
    "low stock",
    "limited stock",
    "almost gone",
    "selling fast",
    "last one",
    "last few",
    "nur noch wenige",
    "wenige verfügbar",
    "geringer bestand",
    "stock limité",
    "plus que quelques",
    "últimas unidades",
    "pocas unidades",
    "ultimi pezzi",
    "pochi pezzi",
    "laatste stuks",
    "ostatnie sztuki",
    "poslední kusy",
    "осталось мало",
    "残りわずか",
    "在庫わずか",
    "库存紧张",
    "품절임박",
];

/// Words before a count of what is left ("Only 3 left", "Nur noch 2",
/// "Plus que 4", "残り3点").
pub(crate) const LEFT_COUNT: &[&str] = &[
    "only ",
    "just ",
    "nur noch ",
    "plus que ",
    "il ne reste que ",
    "solo quedan ",
    "quedan ",
    "nog ",
    "zostało ",
    "zbývá ",
    "осталось ",
    "残り",
    "仅剩",
    "僅剩",
];

/// A stock line saying the product ships once it is back in stock.
pub(crate) const BACK: &[&str] = &[
    "backorder",
    "back order",
    "backordered",
    "back-ordered",
    "on backorder",
    "available on backorder",
    "available for backorder",
    "back-order",
    // More languages: the supplier's stock is awaited, the order is taken.
    "nachbestellt",
    "wird nachbestellt",
    "im zulauf",
    "en réapprovisionnement",
    "en cours de réapprovisionnement",
    "en reposición",
    "pendiente de reposición",
    "in riassortimento",
    "in nabestelling",
    "wordt nabesteld",
    "em reposição",
    "restnoterad",
    "restordre",
    "i restordre",
    "jälkitoimitus",
    "入荷待ち",
    "お取り寄せ",
    "取り寄せ",
    "입고 예정",
    "입고예정",
];

/// A stock line saying the product is no longer made or sold.
/// ("Product discontinued" reads past its noun, `SUBJECTS`.)
pub(crate) const DISCONTINUED: &[&str] = &["discontinued"];

/// Nouns a stock line may open with before its phrase ("Product out of
/// stock", "Produkt niedostępny", "Produto indisponível", "Artikel
/// ausverkauft"), lower-cased.
pub(crate) const SUBJECTS: &[&str] = &[
    "product",
    "item",
    "this item",
    "produkt",
    "artikel",
    "produit",
    "article",
    "producto",
    "artículo",
    "prodotto",
    "articolo",
    "produto",
    "artigo",
    "товар",
    "ürün",
    "商品",
    "상품",
];

/// Labels a stock line may open with, lower-cased, before a colon
/// ("Availability: Out of stock", "Verfügbarkeit: sofort lieferbar").
pub(crate) const LABELS: &[&str] = &[
    "availability",
    "stock",
    "stock status",
    "status",
    "verfügbarkeit",
    "lagerstatus",
    "lieferstatus",
    "lieferbarkeit",
    "disponibilité",
    "disponibilidad",
    "disponibilità",
    "disponibilidade",
    "beschikbaarheid",
    "voorraad",
    "tillgänglighet",
    "saatavuus",
    "dostępność",
    "dostupnost",
    "stok durumu",
    "наличие",
    "наявність",
    "在庫",
    "在庫状況",
    "库存",
    "庫存",
    "재고",
    "재고 상태",
];

/// A stock line (lower-cased) without the noun it opens with ("produkt
/// niedostępny", "item sold out" read "niedostępny", "sold out"). The
/// first byte rules out most nouns before a comparison is called.
pub(crate) fn past_subject(text: &str) -> &str {
    let Some(&first) = text.as_bytes().first() else {
        return text;
    };
    SUBJECTS
        .iter()
        .filter(|s| s.as_bytes().first() == Some(&first))
        .find_map(|s| text.strip_prefix(s)?.strip_prefix(' '))
        .unwrap_or(text)
}

/// A stock line (lower-cased) without its label ("availability: out of
/// stock" reads "out of stock").
pub(crate) fn after_label(text: &str) -> &str {
    // The longest label is 15 bytes ("disponibilidade", "verfügbarkeit").
    // Only the first 24 bytes are searched: a label's colon comes there.
    let Some(colon) = text
        .char_indices()
        .take_while(|&(at, _)| at <= 24)
        .find_map(|(at, c)| matches!(c, ':' | '：').then_some(at))
    else {
        return text;
    };
    if !LABELS.contains(&text[..colon].trim()) {
        return text;
    }
    let rest = &text[colon..];
    rest.trim_start_matches([':', '：']).trim_start()
}

/// The bytes a stock line [`says`] reads may open with, as written (in
/// either case): the first bytes of the phrases, labels and nouns.
static OPENING_BYTES: LazyLock<[bool; 256]> = LazyLock::new(|| {
    let mut at = [false; 256];
    for p in OUT.iter().chain(IN).chain(LABELS).chain(SUBJECTS) {
        for b in [p.as_bytes().first(), p.to_uppercase().as_bytes().first()]
            .into_iter()
            .flatten()
        {
            at[usize::from(*b)] = true;
        }
    }
    at
});

/// Whether a line as written (trimmed, any case) may be one [`says`]
/// reads: it opens with a byte a phrase, label or noun opens with. Most
/// short texts do not, and are not lower-cased.
pub(crate) fn may_say(line: &str) -> bool {
    line.as_bytes()
        .first()
        .is_some_and(|&b| OPENING_BYTES[usize::from(b)])
}

/// What a short stock line (lower-cased) says plainly: in stock (`true`)
/// or out of it (`false`), past its label and noun ("availability: in
/// stock", "produkt niedostępny").
pub(crate) fn says(line: &str) -> Option<bool> {
    let line = past_subject(after_label(line));
    if OUT_PHRASES.starts(line) {
        Some(false)
    } else {
        IN_PHRASES.starts(line).then_some(true)
    }
}
