//! Labelled product codes a shopper sees ("SKU: …", "Item #", "Art.-Nr.",
//! "型番", "EAN"), in the languages shops write in: which slot (SKU, MPN,
//! GTIN) each label fills, and GTINs checked by their check digit.

use std::sync::OnceLock;

use regex::Regex;

use crate::extract::char_class::NO_LETTER;
use crate::html::{Doc, Kind, NodeId};

/// The codes a page shows under their labels.
#[derive(Debug, Default)]
pub(super) struct Codes {
    pub sku: Option<String>,
    pub gtin: Option<String>,
    pub mpn: Option<String>,
}

/// Names of blocks set beside the product's text that still speak of the
/// product itself (`auto::product`'s beside names, reviews and questions left
/// out).
pub(super) const ASIDE_NAMES: &[&str] = &["disclaimer", "popover", "tooltip"];

fn code_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            &[
                // A label starts the text or follows a character that is
                // no letter.
                r"(?i)(?:^|",
                NO_LETTER,
                r")(",
                // Barcode labels that open like a longer one ("Código EAN"
                // is not "Código"), and a maker's number that holds "Artikelnummer"
                r"c[óo]digo\s+(?:ean|de\s+barras)|code\s+ean|codice\s+ean|kod\s+ean|ean[\s-]*code|barcode|streckkod|hersteller-?\s*artikel-?\s*nummer|",
                // English
                r"sku|item\s*(?:#|no\.?|number|id|code)|stock\s*(?:code|#|no\.|number)|internet\s*#|article\s*(?:#|no\.?|number)|mfr\.?\s*(?:part\s*)?(?:#|no\.?|number)|product\s*(?:code|id|#|no\.?|number)|catalog(?:ue)?\s*(?:#|no\.?|number)|ref\s*[:#]|style\s*(?:#|no\.?)|mpn|model(?:lo|l|o|nummer|nr\.?)?\s*(?:#|no\.?|number)?|mod[èe]le|модель|part\s*(?:#|no\.?|number)|upc|ean(?:13|8)?|gtin|isbn(?:-1[03])?|jan(?:\s*code|コード)?",
                // German, Dutch, Polish: Artikelnummer, Art.-Nr., Bestellnummer, Produktnummer (Shopware's), Herstellernummer, Artikelcode, Kod produktu
                r"|artikel\s*:|artnr\.?|herstellernummer|hersteller-?nr\.?|art(?:ikel)?\.?\s*-?\s*(?:nr\.?|nummer)|bestell?\s*-?\s*(?:nr\.?|nummer)|teilenummer|best\.-nr\.?|produkt\s*-?\s*(?:nr\.?|nummer)|productcode|productnummer|artikelcode|kod\s+produktu|nr\s+katalogowy|symbol\s*:|indeks\s*:",
                // French, Spanish, Italian, Portuguese: Réf. fabricant, Réf., Référence, Código, Cod. articolo
                r"|r[ée]f\.?\s+produit|num[ée]ro\s+d['’]article|n°\s*d['’]article|n[úu]mero\s+de\s+art[íi]culo|numero\s+(?:di\s+)?articolo|r[ée]f(?:[ée]rence)?\.?\s*fabricant|r[ée]f[ée]rence(?:\s+(?:interne|produit|article))?|r[ée]f\.|referencia(?:\s+(?:interna|del\s+producto))?|ref\.|refer[êe]ncia|c[óo]digo(?:\s+de\s+(?:producto|art[íi]culo|produto))?|cod\.\s*(?:prodotto|articolo|art\.)|c[óo]d\.|codice(?:\s+(?:articolo|prodotto))?|riferimento|code\s+(?:article|produit)",
                // Japanese, Chinese, Korean, Russian: 型番, 品番, 商品コード, 货号, 商品编号, 型号, 条形码, 상품번호, 모델명, Артикул, Код товара, Штрихкод
                // (Chinese writes no space between words: "商品貨號", "产品型号" open with the goods' own word)
                r"|型番|品番|商品コード|品號|(?:商品|產品|产品)?(?:货号|貨號|型号|型號|条形码|條碼|条码)|商品编号|商品編號|产品编号|產品編號|(?:商品)?管理番号|상품번호|제품번호|품번|모델명|모델번호|артикул|код\s+товара|номер\s+товара|код\s*:|штрих-?код",
                // Nordic, Central and Eastern European, Greek, Turkish: Varenummer,
                // Tuotenumero, Kód produktu, Šifra, Cikkszám, Cod produs, Ürün kodu, Κωδικός
                r"|varenummer|varenr\.?|tuotenumero|tuotekoodi|k[óo]d\s+produktu|kod\s+producenta|k[óo]d\s+v[ýy]robc[eu]|k[óo]d\s*:|katalogov[ée]\s+[čc][íi]slo|objednac[íi]\s+[čc][íi]slo|[šs]ifra(?:\s+proizvoda)?|cikksz[áa]m|term[ée]kk[óo]d|cod\s+produs|[üu]r[üu]n\s+kodu|stok\s+kodu|κωδικός(?:\s+προϊόντος)?|код\s+товару",
                // Arabic, Hebrew, Indonesian, Vietnamese, Thai, Chinese, Korean, Japanese
                r"|رمز\s+المنتج|رقم\s+المنتج|كود\s+المنتج|رقم\s+الموديل|מק״ט|מק\x22ט|kode\s+produk|m[ãa]\s+s[ảa]n\s+ph[ẩa]m|m[ãa]\s+h[àa]ng|รหัสสินค้า|料號|자체상품코드|상품코드|製品番号|商品番号",
                // A label in brackets after the shop's own ("رمز المنتج (SKU):")
                r")\)?\s*[:#.：]?\s*([A-Za-z0-9][A-Za-z0-9\-_./]*)",
            ]
            .concat(),
        )
        .unwrap_or_else(|e| panic!("code pattern: {e}"))
    })
}

/// Labelled codes ("SKU: …", "Model #", "EAN"), each in the first element
/// that shows it, outside the page's chrome and the blocks beside the
/// product. Codes in a block set aside for its name alone (a disclaimer line,
/// a tooltip: BestBuy's "SKU: 10124570" under `class=disclaimer`) are the
/// product's own and fill what is left; those in reviews, questions or other
/// products' cards are not read.
///
/// `digit` says which nodes' text holds a digit: an element without one
/// shows no code.
pub(super) fn read(
    doc: &Doc,
    beside: &[bool],
    digit: &[bool],
    chrome: &dyn Fn(NodeId) -> bool,
    kept_aside: &dyn Fn(NodeId) -> bool,
) -> Codes {
    let mut v = Codes::default();
    let mut aside: Vec<String> = Vec::new();
    // One buffer for every element's text: most are read and let go.
    let mut text = String::new();
    for (i, &set_aside) in beside.iter().enumerate().take(doc.len()) {
        let id = i as NodeId;
        let chars = doc.agg[i].chars;
        if doc.nodes[i].kind != Kind::Element
            || chars == 0
            || chars > 80
            || !digit.get(i).copied().unwrap_or(true)
            || chrome(id)
        {
            continue;
        }
        doc.plain_text_into(id, &mut text);
        if !code_pattern().is_match(&text) {
            continue;
        }
        if set_aside {
            if kept_aside(id) {
                aside.push(text.clone());
            }
            continue;
        }
        fill_codes(&mut v, &text);
        if v.sku.is_some() && v.gtin.is_some() && v.mpn.is_some() {
            return v;
        }
    }
    for text in aside {
        fill_codes(&mut v, &text);
    }
    if v.sku.is_none() {
        v.sku = unlabelled_sku(doc, beside, digit, chrome);
    }
    v
}

/// A SKU shown without a label: the one code in an element named for it
/// (`<span class="product-sku">DR-1200</span>`), outside the chrome and
/// the blocks beside the product. Two different codes (a grid of products,
/// each with its own) say nothing. A SKU attribute (`data-sku`) is not
/// read: a shop's "buy with" widget carries its own service's code in it
/// (wcxb-dev 2990, 3026).
fn unlabelled_sku(
    doc: &Doc,
    beside: &[bool],
    digit: &[bool],
    chrome: &dyn Fn(NodeId) -> bool,
) -> Option<String> {
    let mut named: Option<String> = None;
    for (i, &set_aside) in beside.iter().enumerate().take(doc.len()) {
        let chars = doc.agg[i].chars;
        if doc.nodes[i].kind != Kind::Element
            || set_aside
            || !(3..=40).contains(&chars)
            || !digit.get(i).copied().unwrap_or(true)
        {
            continue;
        }
        let id = i as NodeId;
        let (class, ident) = doc.class_id(id);
        if !class.is_some_and(names_sku) && !ident.is_some_and(names_sku) {
            continue;
        }
        let text = doc.plain_text(id);
        let text = text.trim();
        if is_code(text) && !chrome(id) {
            if named.as_deref().is_some_and(|b| b != text) {
                return None;
            }
            named.get_or_insert_with(|| text.to_string());
        }
    }
    named
}

/// Whether class or id names a SKU: a name that is "sku" or ends in it
/// (`sku`, `product-sku`, `product__sku`, `productSku`).
fn names_sku(names: &str) -> bool {
    names.split_whitespace().any(|n| {
        let n = n.as_bytes();
        n.len() >= 3 && n[n.len() - 3..].eq_ignore_ascii_case(b"sku")
    })
}

/// One code: 3–40 letters, digits and `-_./`, a digit among them.
fn is_code(s: &str) -> bool {
    (3..=40).contains(&s.len())
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// Fills the empty code slots from the labelled codes of one element's text
/// (a line may hold several: "Model: ZGM-00026 SKU: 10124570").
fn fill_codes(v: &mut Codes, text: &str) {
    for c in code_pattern().captures_iter(text) {
        let (Some(label), Some(value)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let value = value.as_str().trim_end_matches(['.', '/', '-']);
        if !is_code(value) {
            continue;
        }
        let label = label.as_str().to_lowercase();
        // "商品型號" is a 型號, "产品条码" a 条码.
        let label = ["商品", "產品", "产品"]
            .iter()
            .find_map(|p| label.strip_prefix(p))
            .map_or(label.as_str(), |rest| rest);
        let slot = if [
            "upc",
            "ean",
            "gtin",
            "isbn",
            "jan",
            "条形码",
            "條碼",
            "条码",
            "штрих",
            "barcode",
            "streckkod",
        ]
        .iter()
        .any(|l| label.starts_with(l))
            || label.ends_with("ean")
            || label.ends_with("barras")
        {
            // A number that fails its check digit is not a GTIN; one
            // written in groups ("978-3-16-148410-0") is kept as digits.
            if !gtin_checks(value) {
                continue;
            }
            if v.gtin.is_none() {
                v.gtin = Some(value.replace('-', ""));
            }
            continue;
        } else if [
            "mpn",
            "mfr",
            "model",
            "modèle",
            "модель",
            "part",
            "hersteller",
            "型番",
            "型号",
            "型號",
            "모델명",
            "모델번호",
            "رقم الموديل",
            "teilenummer",
        ]
        .iter()
        .any(|l| label.starts_with(l))
            || (label.starts_with("r") && label.contains("fabricant"))
            || label.contains("producent")
            || label.contains("výrobc")
            || label.contains("vyrobc")
        {
            &mut v.mpn
        } else {
            &mut v.sku
        };
        if slot.is_none() {
            *slot = Some(value.to_string());
        }
    }
}

/// Whether a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14; an ISBN-10 is let
/// through) passes its check digit: digits weighted 3 and 1 from the right
/// of the payload sum to a multiple of ten with the check digit.
fn gtin_checks(code: &str) -> bool {
    let code = code.replace('-', "");
    // An ISBN-10's check character may be X.
    if code.len() == 10 && code[..9].bytes().all(|b| b.is_ascii_digit()) {
        return code.ends_with(|c: char| c.is_ascii_digit() || c == 'X' || c == 'x');
    }
    let digits: Vec<u32> = code
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()
        .unwrap_or_default();
    match digits.len() {
        8 | 12 | 13 | 14 => {
            let (check, payload) = digits.split_last().map_or((0, &[][..]), |(c, p)| (*c, p));
            let sum: u32 = payload
                .iter()
                .rev()
                .enumerate()
                .map(|(i, d)| if i % 2 == 0 { d * 3 } else { *d })
                .sum();
            (10 - sum % 10) % 10 == check
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(html: &str) -> Codes {
        let doc = Doc::parse_str(html);
        let beside = vec![false; doc.len()];
        let digit = super::super::price_boxes::digits(&doc);
        read(&doc, &beside, &digit, &|_| false, &|_| false)
    }

    /// Issue 59: a SKU shown without a label, in an element named for it
    /// by its element's name; two different ones say nothing.
    #[test]
    fn an_unlabelled_sku_named_by_its_element_or_attribute() {
        let sku = |html: &str| read_all(html).sku;
        assert_eq!(
            sku("<h1>Drill</h1><span class=product-sku>DR-1200</span>").as_deref(),
            Some("DR-1200")
        );
        assert_eq!(sku("<h1>Drill</h1><span class=sku>In stock</span>"), None);
        assert_eq!(
            sku("<span class=sku>A-100</span><span class=sku>B-200</span>"),
            None
        );
        assert_eq!(
            read_all("<p>商品番号：DR-1200</p>").sku.as_deref(),
            Some("DR-1200")
        );
    }

    /// A label opens the text or follows a character that is no letter
    /// (a bullet, CJK punctuation, an emoji); inside a word it is none.
    #[test]
    fn a_label_follows_no_letter() {
        let sku = |line: &str| read_all(&format!("<h1>Item</h1><p>{line}</p>")).sku;
        for line in [
            "•SKU: AB-123",
            "📦SKU: AB-123",
            "，货号：AB-123",
            "(SKU: AB-123)",
        ] {
            assert_eq!(sku(line).as_deref(), Some("AB-123"), "{line}");
        }
        for line in [
            "Boxsku: AB-123",
            "Ωsku: AB-123",
            "Ésku: AB-123",
            "µsku: AB-123",
        ] {
            assert_eq!(sku(line), None, "{line}");
        }
    }

    /// Issue 59: codes under labels in more languages, and GTINs checked.
    #[test]
    fn codes_under_labels_in_many_languages() {
        let codes = |line: &str| {
            let v = read_all(&format!("<h1>Item</h1><p>{line}</p>"));
            (v.sku, v.mpn, v.gtin)
        };
        let s = |x: &str| Some(x.to_string());
        for (line, want) in [
            ("Artikelnummer: 4711-22", (s("4711-22"), None, None)),
            ("Produktnummer: SW10041", (s("SW10041"), None, None)),
            ("Produkt-Nr.: SW10041", (s("SW10041"), None, None)),
            ("Productnummer: NL-2041", (s("NL-2041"), None, None)),
            ("Herstellernummer: HX-900", (None, s("HX-900"), None)),
            ("Réf. : 100234", (s("100234"), None, None)),
            ("Réf. fabricant : RF-77", (None, s("RF-77"), None)),
            // wcxb-dev 0608 read without its markup.
            (
                "Référence interne MART-00001",
                (s("MART-00001"), None, None),
            ),
            ("Referencia interna: ES-0042", (s("ES-0042"), None, None)),
            ("Código de producto: 55012", (s("55012"), None, None)),
            ("Codice articolo: IT-3321", (s("IT-3321"), None, None)),
            ("Product #: 55-1020", (s("55-1020"), None, None)),
            ("Catalogue number: 123/4567", (s("123/4567"), None, None)),
            ("Ref: 12345", (s("12345"), None, None)),
            ("Item Code: 88-1020", (s("88-1020"), None, None)),
            ("Stock Code: 88-1020", (s("88-1020"), None, None)),
            ("Cod. prodotto: LT-220", (s("LT-220"), None, None)),
            // Labels read since the seventy-second session.
            ("Stock #: 88120", (s("88120"), None, None)),
            ("Internet # 312345678", (s("312345678"), None, None)),
            ("Bestelnummer: NL-2041", (s("NL-2041"), None, None)),
            ("Teilenummer: 0986494524", (None, s("0986494524"), None)),
            ("Symbol: KP-1200", (s("KP-1200"), None, None)),
            ("Indeks: 100234", (s("100234"), None, None)),
            ("Code produit : FR-7788", (s("FR-7788"), None, None)),
            ("Réf. produit : 100234", (s("100234"), None, None)),
            ("Riferimento: IT-5521", (s("IT-5521"), None, None)),
            ("Objednací číslo: CZ-4410", (s("CZ-4410"), None, None)),
            ("商品管理番号：abc-1234", (s("abc-1234"), None, None)),
            ("제품번호: 62811", (s("62811"), None, None)),
            ("모델번호: SM-G991", (None, s("SM-G991"), None)),
            ("كود المنتج: 77120", (s("77120"), None, None)),
            ("Mã hàng: VN-2231", (s("VN-2231"), None, None)),
            ("Referência: BR-5521", (s("BR-5521"), None, None)),
            ("型番：KJ-45X2", (None, s("KJ-45X2"), None)),
            ("货号：A123456", (s("A123456"), None, None)),
            ("商品编号：100012043978", (s("100012043978"), None, None)),
            // The goods' own word before the label, no space between.
            ("商品貨號：TB-2201", (s("TB-2201"), None, None)),
            ("产品型号：KJ-45X2", (None, s("KJ-45X2"), None)),
            ("商品條碼：4901234567894", (None, None, s("4901234567894"))),
            ("Код товара: 310021", (s("310021"), None, None)),
            ("Артикул: 7-880-12", (s("7-880-12"), None, None)),
            ("상품번호: 62811", (s("62811"), None, None)),
            ("Varenummer: 88-120", (s("88-120"), None, None)),
            ("Tuotenumero: 55120", (s("55120"), None, None)),
            ("Kód produktu: CZ-4410", (s("CZ-4410"), None, None)),
            ("Šifra proizvoda: 100234", (s("100234"), None, None)),
            ("Cikkszám: HU-778", (s("HU-778"), None, None)),
            ("Ürün kodu: TR1200", (s("TR1200"), None, None)),
            ("Κωδικός: GR-5510", (s("GR-5510"), None, None)),
            ("رمز المنتج: 44120", (s("44120"), None, None)),
            ("מק״ט: 778812", (s("778812"), None, None)),
            ("Mã sản phẩm: VN-300", (s("VN-300"), None, None)),
            ("รหัสสินค้า: TH-1001", (s("TH-1001"), None, None)),
            ("EAN: 4006381333931", (None, None, s("4006381333931"))),
            ("JANコード：4902370548495", (None, None, s("4902370548495"))),
            ("ISBN: 978-3-16-148410-0", (None, None, s("9783161484100"))),
            ("Modell: GSR12V-15", (None, s("GSR12V-15"), None)),
            ("Modèle : GSR12V-15", (None, s("GSR12V-15"), None)),
            ("Modelo: GSR12V-15", (None, s("GSR12V-15"), None)),
            ("Modello: GSR12V-15", (None, s("GSR12V-15"), None)),
            ("Modelnummer: GSR12V-15", (None, s("GSR12V-15"), None)),
            ("Модель: GSR12V-15", (None, s("GSR12V-15"), None)),
            (
                "Hersteller-Artikelnummer: 06019F6000",
                (None, s("06019F6000"), None),
            ),
            ("EAN-Code: 4059952513591", (None, None, s("4059952513591"))),
            ("Code EAN : 4059952513591", (None, None, s("4059952513591"))),
            (
                "Código de barras: 4059952513591",
                (None, None, s("4059952513591")),
            ),
            // A bare "Code:" (Shoptet's Czech, Ukrainian and Russian
            // shops), a Korean shop's own code, a Polish maker's code, an
            // English label in brackets after the shop's own.
            ("Kód: HR-0042", (s("HR-0042"), None, None)),
            ("Код: 354711", (s("354711"), None, None)),
            ("자체상품코드 LS-BG-01", (s("LS-BG-01"), None, None)),
            (
                "Kod producenta: ECAM22.110.B",
                (None, s("ECAM22.110.B"), None),
            ),
            ("Kód výrobce: ECAM22.110.B", (None, s("ECAM22.110.B"), None)),
            ("رمز المنتج (SKU): OUD-250", (s("OUD-250"), None, None)),
            // Issue 59: "article number" in French, Spanish and Italian, a
            // bare "Artikel:", "номер товара".
            ("Numéro d'article : 100234", (s("100234"), None, None)),
            ("N° d'article: FR-0042", (s("FR-0042"), None, None)),
            ("Número de artículo: ES-9921", (s("ES-9921"), None, None)),
            ("Numero articolo: IT-5510", (s("IT-5510"), None, None)),
            ("Artikel: 4711-22", (s("4711-22"), None, None)),
            ("Artnr: 55120", (s("55120"), None, None)),
            ("Номер товара: 310021", (s("310021"), None, None)),
        ] {
            assert_eq!(codes(line), want, "{line}");
        }
        // A code word not followed by its colon is no label ("Kod
        // rabatowy" is a coupon's).
        assert_eq!(codes("Kod rabatowy SUMMER10"), (None, None, None));
        // A style (the maker's, Nike's "Style: FD2722-002") is no SKU.
        assert_eq!(codes("Style: FD2722-002"), (None, None, None));
        // A number that fails its check digit is not a GTIN.
        assert_eq!(codes("EAN: 4006381333932").2, None);
        assert!(
            gtin_checks("036000291452") && gtin_checks("96385074") && gtin_checks("0-306-40615-2")
        );
        // Words that begin like a label are not one.
        assert_eq!(codes("Referenzen 2023 und mehr"), (None, None, None));
    }
}
