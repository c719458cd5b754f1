//! The words shops print beside a price that say which price it is: a
//! former or reference price ("Was", "UVP", "Precio de lista", "通常価格"),
//! another seller's offer ("Other sellers from", "Weitere Angebote ab"), an
//! auction's starting bid ("Starting bid", "Startpreis"), a threshold
//! ("orders over $50") and a price before tax ("ex VAT", "Prix HT"). The buy
//! box reads them in the box's own text and in the text around it; the
//! words are the common phrases of the languages shops write in, never a
//! shop's own.

use super::money::find_prices;

/// Words that open a former or reference price's label in the box's own
/// text ("Was $49.90", "Regular price €59").
const FORMER_OPENING: &[&str] = &[
    "was",
    "regular price",
    "original price",
    "list price",
    "rrp",
    "msrp",
    "mrp",
    "m.r.p.",
    "uvp",
    "statt",
    "avant",
    "before",
    "compare at",
    "prezzo di listino",
    "ordinarie pris",
];

/// Words just before a price that make it a former price ("Was", "statt").
const FORMER_BEFORE: &[&str] = &[
    "was",
    "was:",
    "original price",
    "original price:",
    "list price",
    "list price:",
    "rrp",
    "uvp",
    "msrp",
    "mrp",
    "m.r.p.",
    "statt",
    "compare at",
    "van",
];

/// "Instead of", opening a former price's box or just before it ("49,90 €
/// au lieu de 59,90 €").
const INSTEAD_OF: &[&str] = &[
    "instead of",
    "au lieu de",
    "anstatt",
    "en lugar de",
    "em vez de",
    "zamiast",
    "místo",
    "i stället för",
    "вместо",
    "замість",
];

/// A former or reference price's label in other languages, as a box's first
/// words or the words before it.
const FORMER_LABELS: &[&str] = &[
    "ancien prix",
    "prix barré",
    "prix conseillé",
    "prix de référence",
    "precio anterior",
    "precio de lista",
    "precio regular",
    "precio habitual",
    "antes",
    "invece di",
    "prezzo consigliato",
    "prezzo pieno",
    "voorheen",
    "adviesprijs",
    "ord. pris",
    "normalpris",
    "tidligere pris",
    "normaalihinta",
    "było",
    "stara cena",
    "stará cena",
    "alter preis",
    "oude prijs",
    "prezzo precedente",
    "régi ár",
    "preț vechi",
    "стара ціна",
    "vanha hinta",
    "cena regularna",
    "cena katalogowa",
    "poprzednia cena",
    "běžná cena",
    "původní cena",
    "eski fiyat",
    "liste fiyatı",
    "было",
    "старая цена",
    "原价",
    "原價",
    "市场价",
    "市場價",
    "定価",
    "通常価格",
    "参考価格",
    "定價",
    "建议零售价",
    "希望小売価格",
    "정가",
    "소비자가",
    "prix initial",
    "prix d'origine",
    "precio original",
    "preço original",
    "preço antigo",
    "ursprünglicher preis",
    "streichpreis",
    "oprindelig pris",
    "opprinnelig pris",
    "ursprungligt pris",
    "alkuperäinen hinta",
    "pôvodná cena",
    "piyasa fiyatı",
    "giá gốc",
    "giá cũ",
    "giá niêm yết",
    "harga normal",
    "harga asli",
    "harga coret",
    "harga asal",
    "ราคาปกติ",
    "αρχική τιμή",
    "παλιά τιμή",
    "מחיר מקורי",
    "السعر الأصلي",
    "السعر القديم",
];

/// Headings and labels of other sellers' offers of the same product
/// ("Other offers", "Weitere Angebote"): a price under one is not the main
/// offer's, and a section headed by one is beside the product
/// (`beside::SIDE_SECTIONS` reads them too).
pub(crate) const OTHER_SELLERS: &[&str] = &[
    "other offers",
    "weitere angebote",
    "andere anbieter",
    "autres vendeurs",
    "autres offres",
    "otros vendedores",
    "altri venditori",
    "andere verkopers",
    "inne oferty",
    "その他の出品者",
    "其他卖家",
];

/// More labels of a price that is not the main offer's, beside
/// [`OTHER_SELLERS`]: other sellers' offers and used copies ("Other sellers
/// from $61.20"), and an auction's starting bid, which the current bid
/// replaces. Read anywhere in the text before the price or at the start of
/// its box.
const OTHER_OFFER: &[&str] = &[
    "other sellers",
    "more buying choices",
    "new & used",
    "used & new",
    "new and used",
    "used from",
    "refurbished from",
    "starting bid",
    "opening bid",
    "gebraucht ab",
    "startpreis",
    "startgebot",
    "d'occasion",
    "mise à prix",
    "prix de départ",
    "otras ofertas",
    "usado desde",
    "precio de salida",
    "puja inicial",
    "altre offerte",
    "usato da",
    "prezzo di partenza",
    "base d'asta",
    "cena wywoławcza",
    "другие продавцы",
    "начальная цена",
    "中古品",
    "開始価格",
    "起拍价",
    "起標價",
    "시작가",
];

/// Whether `opening` (the box's text, lower-cased) opens with `w`, or
/// `before` (the text before the box, lower-cased) ends with it, a whole
/// word ("van", not "caravan"; scripts without spaces need no boundary).
/// Each label's first (last) byte is compared before the label: a box is
/// asked of some hundred labels, most of which differ there.
fn labelled(opening: &str, before: &str, open: &[&str], end: &[&str]) -> bool {
    let first = opening.as_bytes().first();
    if open
        .iter()
        .any(|w| w.as_bytes().first() == first && opening.starts_with(w))
    {
        return true;
    }
    let p = before.trim_end_matches([':', '：', ' ']);
    let Some(last) = p.as_bytes().last() else {
        return false;
    };
    end.iter().any(|w| {
        w.as_bytes().last() == Some(last)
            && p.strip_suffix(w)
                .is_some_and(|rest| !rest.ends_with(char::is_alphanumeric) || !w.is_ascii())
    })
}

/// A former or reference price: its box opens with such a label, or the
/// text before it ends with one.
pub(crate) fn former(opening: &str, before: &str) -> bool {
    labelled(opening, before, FORMER_OPENING, FORMER_BEFORE)
        || labelled(opening, before, FORMER_LABELS, FORMER_LABELS)
        || labelled(opening, before, INSTEAD_OF, INSTEAD_OF)
}

/// Another seller's offer or an auction's starting bid: the label opens the
/// box or stands in the short text before it ("Other sellers from"; a
/// paragraph before the box is not its label, nor a text holding a price
/// of its own: that other offer's box came before).
pub(crate) fn other_offer(opening: &str, before: &str) -> bool {
    let mut labels = OTHER_OFFER.iter().chain(OTHER_SELLERS);
    if labels.clone().any(|w| opening.starts_with(w)) {
        return true;
    }
    before.len() <= LABEL_BYTES
        && labels.any(|w| before.contains(w))
        && find_prices(before).is_empty()
}

/// Words just before an amount that make it a threshold, not a price: free
/// shipping "on orders over $50", "when you spend £40", "dès 60 €",
/// "ab einem Bestellwert von 50 €".
const THRESHOLD_BEFORE: &[&str] = &[
    "over",
    "above",
    "spend",
    "orders of",
    "purchases of",
    "minimum",
    "minimum order",
    "dès",
    "bestellwert von",
    "bestellungen über",
    "über",
    "superiores a",
    "pedidos de más de",
    "sopra i",
    "oltre",
    "vanaf",
    "от суммы",
    // Free delivery "from" a sum, where "from" alone opens a price.
    "dostawa od",
    "wysyłka od",
    "zdarma od",
    "gratis fra",
    "gratis från",
    "yli",
    "över",
    "versandkostenfrei ab",
    "kostenloser versand ab",
    "envío gratis desde",
    "spedizione gratuita da",
    "acima de",
    "бесплатная доставка от",
];

/// Whether an amount whose preceding text (lower-cased) is `before` is a
/// threshold ("Free shipping on orders over $50"), a whole word.
pub(crate) fn threshold(before: &str) -> bool {
    labelled("", before, &[], THRESHOLD_BEFORE)
}

/// Words just before an amount that make it a saving ("Save $30.00", "Sie
/// sparen 20 €", "立省¥70") or an instalment ("4 payments of $32.25",
/// "10x de R$ 43,90", "3 rate da 43 €"), never the price.
const PART_OF_PRICE: &[&str] = &[
    "save",
    "you save",
    "saving",
    "savings",
    "payments of",
    "installments of",
    "instalments of",
    "sie sparen",
    "ersparnis",
    "raten à",
    "raten von",
    "économisez",
    "vous économisez",
    "mensualités de",
    "ahorra",
    "ahorras",
    "ahorro",
    "cuotas de",
    "risparmi",
    "risparmio",
    "rate da",
    "u bespaart",
    "bespaar",
    "oszczędzasz",
    "rat po",
    "ušetříte",
    "parcelas de",
    "economize",
    "экономия",
    "вы экономите",
    "spar",
    "du sparar",
    "立省",
    "节省",
    "お得",
    "절약",
    // Instalments in more words ("12 cuotas sin interés de $ 4.166",
    // "12 meses sin intereses de").
    "sin interés de",
    "sin intereses de",
    "sem juros de",
    // An add-on charged beside the price ("zzgl. 0,25 € Pfand", "dont
    // éco-participation 0,50 €"); a deposit's label needs its colon
    // (`DELIVERY`).
    "zzgl.",
    "éco-participation",
    "eco-participation",
    "écotaxe",
];

/// Labels of a delivery charge, read only when a colon ends them
/// ("Shipping: $5.99", "Versandkosten: 4,95 €"): a badge's "Free shipping"
/// before a price box does not label it.
const DELIVERY: &[&str] = &[
    // And a deposit ("Deposit: $0.10", "Pfand: 0,25 €").
    "deposit",
    "pfand",
    "statiegeld",
    "pant",
    "shipping",
    "shipping cost",
    "delivery",
    "postage",
    "versand",
    "versandkosten",
    "livraison",
    "frais de port",
    "envío",
    "gastos de envío",
    "spedizione",
    "verzendkosten",
    "dostawa",
    "koszt dostawy",
    "doprava",
    "доставка",
    "送料",
    "运费",
    "運費",
    "배송비",
];

/// Whether an amount whose preceding text (lower-cased) is `before` is a
/// saving, an instalment or a delivery charge, not the price.
pub(crate) fn not_the_price(before: &str) -> bool {
    if labelled("", before, &[], PART_OF_PRICE) {
        return true;
    }
    // "10x de R$ 43,90", "ou 3x 16,66 €", "3 × 16,66 €": a count of
    // instalments (two or more) and its "x".
    let b = before.trim_end();
    let b = b.strip_suffix(" de").unwrap_or(b);
    let instalments = b
        .strip_suffix(['x', '×'])
        .map(str::trim_end)
        .is_some_and(|rest| {
            let count: String = rest
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect();
            let whole = rest[..rest.len() - count.len()]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            whole
                && count
                    .chars()
                    .rev()
                    .collect::<String>()
                    .parse::<u32>()
                    .is_ok_and(|n| n >= 2)
        });
    if instalments || loyalty_points(before) {
        return true;
    }
    let b = before.trim_end();
    b.ends_with([':', '：']) && labelled("", b, &[], DELIVERY)
}

/// Words of loyalty points, after their count.
const POINTS: &[&str] = &[
    "points", "pts", "punkte", "punten", "puntos", "punti", "pontos",
];

/// A loyalty reward's worth: the text before ends with a count of points
/// and perhaps a bracket ("Earn 50 points ($0.50)").
fn loyalty_points(before: &str) -> bool {
    let b = before.trim_end_matches([' ', '(', '（', ':']);
    POINTS.iter().any(|w| {
        b.strip_suffix(w)
            .is_some_and(|rest| rest.trim_end().ends_with(|c: char| c.is_ascii_digit()))
    })
}

/// Labels of a price before tax ("£25.00 ex VAT", "Prix HT", "zzgl.
/// MwSt.", "cena netto", "税抜"): a business customer's price, printed
/// beside the price a shopper pays. Read right after the amount or right
/// before it.
const NET_OF_TAX: &[&str] = &[
    "ex vat",
    "ex. vat",
    "exc vat",
    "exc. vat",
    "excl vat",
    "excl. vat",
    "excluding vat",
    "ex-vat",
    "+ vat",
    "+vat",
    "plus vat",
    "ex gst",
    "excl. gst",
    "+ gst",
    "excl. tax",
    "ex tax",
    "before tax",
    "exkl. mwst",
    "exkl. mwst.",
    "zzgl. mwst",
    "zzgl. mwst.",
    "zzgl. ust",
    "netto",
    "exkl. moms",
    "ex. moms",
    "ex moms",
    "ekskl. moms",
    "ekskl. mva",
    "eks. mva",
    "ht",
    "h.t.",
    "hors taxes",
    "hors taxe",
    "excl. btw",
    "ex. btw",
    "excl btw",
    "exclusief btw",
    "sin iva",
    "+ iva",
    "más iva",
    "iva esclusa",
    "iva escl.",
    "bez dph",
    "bez vat",
    "без ндс",
    "税抜",
    "税別",
    "未税",
    "不含税",
    "부가세 별도",
    "vat 별도",
];

/// Whether a price is labelled as before tax: the text right after it
/// (lower-cased) opens with a label ("ex VAT", "(excl. VAT)", "HT"), or the
/// text right before it ends with one ("Excl. VAT:", "Prix HT :", "Netto"),
/// a whole word.
pub(crate) fn net_of_tax(after: &str, before: &str) -> bool {
    let after = after.trim_start_matches([' ', '(', '（', '[', '*', '\u{a0}']);
    let opens = NET_OF_TAX.iter().any(|w| {
        after
            .strip_prefix(w)
            .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric) || !w.is_ascii())
    });
    opens || labelled("", before, &[], NET_OF_TAX)
}

/// The label of the price paid in a sale, beside the price without it
/// ("价格 ¥199 促销价 ¥99", "Preis: 59,00 € Aktionspreis: 39,00 €"): the
/// common phrases for a sale, promotional, special or discounted price, as a
/// box's first words or the words before it.
const SALE_LABELS: &[&str] = &[
    "sale price",
    "special price",
    "offer price",
    "deal price",
    "promo price",
    "promotional price",
    "discounted price",
    "price after discount",
    "aktionspreis",
    "angebotspreis",
    "sonderpreis",
    "prix promo",
    "prix promotionnel",
    "prix soldé",
    "prix réduit",
    "precio oferta",
    "precio de oferta",
    "precio promocional",
    "precio rebajado",
    "precio con descuento",
    "prezzo scontato",
    "prezzo promozionale",
    "prezzo in offerta",
    "preço promocional",
    "preço com desconto",
    "actieprijs",
    "aanbiedingsprijs",
    "cena promocyjna",
    "akční cena",
    "akciová cena",
    "akciós ár",
    "preț promoțional",
    "kampanjpris",
    "tilbudspris",
    "tarjoushinta",
    "indirimli fiyat",
    "цена со скидкой",
    "акционная цена",
    "цена по акции",
    "ціна зі знижкою",
    "акційна ціна",
    "τιμή προσφοράς",
    "מחיר מבצע",
    "سعر العرض",
    "السعر بعد الخصم",
    "harga promo",
    "harga diskon",
    "giá khuyến mãi",
    "giá ưu đãi",
    "ราคาพิเศษ",
    "ราคาโปรโมชั่น",
    "促销价",
    "促銷價",
    "特价",
    "特價",
    "优惠价",
    "優惠價",
    "活动价",
    "活動價",
    "折扣价",
    "折扣價",
    "セール価格",
    "特価",
    "割引価格",
    "할인가",
    "세일가",
    "특가",
];

/// The price paid in a sale: its box opens with a sale price's label, or
/// the text before it ends with one.
pub(crate) fn sale(opening: &str, before: &str) -> bool {
    labelled(opening, before, SALE_LABELS, SALE_LABELS)
}

/// Longest text before a price read as its label (bytes).
const LABEL_BYTES: usize = 80;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instalment_counts_and_loyalty_points_are_not_the_price() {
        for before in [
            "10x de",
            "ou 3x",
            "3 ×",
            "12 x",
            "earn 50 points (",
            "sammle 50 punkte (",
            "zzgl.",
            "12 cuotas sin interés de",
            "deposit:",
        ] {
            assert!(not_the_price(before), "{before}");
        }
        // One of a thing, a size or a model, and points without a count.
        for before in [
            "1x",
            "box",
            "size xx",
            "max",
            "acupressure points",
            "deposit box",
        ] {
            assert!(!not_the_price(before), "{before}");
        }
    }

    #[test]
    fn former_labels_open_the_box_or_end_the_text_before() {
        assert!(former("was $49.90", ""));
        assert!(former("$49.90", "was:"));
        assert!(former("90,00 €", "precio de lista:"));
        assert!(former("¥4,980", "通常価格"));
        assert!(former("precio de lista: 90,00 €", ""));
        // "Old price" in Polish and Ukrainian, before the price's box.
        assert!(former("1 349,00 zł", "stara cena"));
        assert!(former("1 349 грн", "стара ціна:"));
        // "Instead of" before the former price; "original price" in more
        // languages and scripts.
        assert!(former("59,90 €", "49,90 € au lieu de"));
        assert!(former("au lieu de 59,90 €", "49,90 €"));
        assert!(former("599 kč", "499 kč místo"));
        assert!(former("1.590.000₫", "giá gốc:"));
        assert!(former("฿1,290", "ราคาปกติ"));
        assert!(former("€ 59,90", "αρχική τιμή:"));
        assert!(former("₪199", "מחיר מקורי"));
        assert!(former("rp 250.000", "harga coret"));
        // A whole word: "caravan" does not end with the label "van".
        assert!(!former("€ 49,90", "caravan"));
        assert!(!former("$39.90", "now"));
    }

    #[test]
    fn sale_labels_open_the_box_or_end_the_text_before() {
        assert!(sale("sale price: $39.00", ""));
        assert!(sale("39,00 €", "aktionspreis:"));
        assert!(sale("¥99.00", "促销价"));
        assert!(sale("39,000원", "할인가"));
        assert!(sale("3 990 ₽", "цена со скидкой:"));
        // The plain price's label is none; nor a word that ends like one.
        assert!(!sale("$59.00", "price:"));
        assert!(!sale("¥199.00", "价格"));
        assert!(!sale("$59.00", "presale price"));
    }

    #[test]
    fn savings_instalments_and_delivery_are_not_the_price() {
        assert!(not_the_price("save"));
        assert!(not_the_price("pay in 4 installments of"));
        assert!(not_the_price("10x de"));
        assert!(not_the_price("sie sparen"));
        assert!(not_the_price("shipping:"));
        assert!(not_the_price("versandkosten :"));
        assert!(not_the_price("立省"));
        // A badge is no delivery label; a whole word: "spar" is not "caspar".
        assert!(!not_the_price("free shipping"));
        assert!(!not_the_price("caspar"));
        assert!(!not_the_price("price:"));
    }

    #[test]
    fn prices_before_tax_are_labelled_after_or_before() {
        assert!(net_of_tax(" ex vat", ""));
        assert!(net_of_tax(" (excl. vat)", ""));
        assert!(net_of_tax(" ht", "prix"));
        assert!(net_of_tax("", "prix ht :"));
        assert!(net_of_tax("", "cena netto:"));
        assert!(net_of_tax("（税抜）", ""));
        assert!(!net_of_tax(" inc vat", ""));
        assert!(!net_of_tax(" zzgl. versand", "inkl. mwst."));
        // Whole words: "html" is no "ht", "anthem" ends in no label.
        assert!(!net_of_tax(" html", "anthem"));
    }

    #[test]
    fn other_sellers_and_starting_bids_are_other_offers() {
        assert!(other_offer("$61.20", "other sellers from"));
        assert!(other_offer("$10.00", "starting bid:"));
        assert!(other_offer("10,00 eur", "startpreis:"));
        assert!(other_offer("autres vendeurs à partir de 61,20 €", ""));
        assert!(!other_offer("$25.50", "current bid:"));
        assert!(!other_offer("$74.00", "price"));
        // The text before is the other offer's own box, price and all.
        assert!(!other_offer(
            "74,00 €",
            "autres vendeurs à partir de 61,20 €"
        ));
        let paragraph = "a long story of the lamp: we also sell lamps used from other shops, \
                         repaired and tested before they ship, with a year's warranty";
        assert!(!other_offer("$74.00", paragraph));
    }
}
