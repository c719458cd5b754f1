//! A shop page's controls: its add-to-cart buttons in the common phrases
//! of the languages shops write in ("Add to cart", "In den Warenkorb",
//! "カートに入れる", an auction's "Place bid"), and the submits of forms
//! that add to the cart whatever language their label is in. A product
//! page has one buy box; a grid of products has a button per card. Page
//! typing, the shell test and the product record's availability read them.

use std::sync::LazyLock;

pub(crate) use super::phrases::starts;
use super::phrases::Phrases;
use super::stock_words::{NOTIFY_PHRASES, OUT_PHRASES};
use super::visible::in_chrome;
use crate::extract::noise::matches_any_token;
use crate::html::{Doc, NodeId, Tag};

/// Longest element text read as a stock line or a button.
pub(crate) const LINE_CHARS: u32 = 40;

/// [`CART`], indexed by first byte: every short link is read against it.
static CART_PHRASES: LazyLock<Phrases> = LazyLock::new(|| Phrases::new(CART));

/// Add-to-cart phrases (lower-cased).
const CART: &[&str] = &[
    "add to cart",
    "add to basket",
    "add to bag",
    "add to trolley",
    "add to shopping cart",
    "add to shopping bag",
    "buy now",
    "buy it now",
    "in den warenkorb",
    "in den einkaufswagen",
    "jetzt kaufen",
    "ajouter au panier",
    "acheter",
    "añadir al carrito",
    "agregar al carrito",
    "añadir a la cesta",
    "comprar",
    "aggiungi al carrello",
    "acquista",
    "in winkelwagen",
    "toevoegen aan winkelwagen",
    "lägg i varukorg",
    "læg i kurv",
    "legg i handlekurv",
    "lisää ostoskoriin",
    "do koszyka",
    "dodaj do koszyka",
    "do košíku",
    "adicionar ao carrinho",
    "в корзину",
    "добавить в корзину",
    "купить",
    "sepete ekle",
    "satın al",
    "kosárba",
    "adaugă în coș",
    "προσθήκη στο καλάθι",
    "thêm vào giỏ",
    "mua ngay",
    "beli sekarang",
    "masukkan keranjang",
    "beli langsung",
    "カートに入れる",
    "カートに追加",
    "カートへ入れる",
    "カートへ追加",
    "買い物かごに入れる",
    "買い物カゴに入れる",
    "かごに入れる",
    "カゴに入れる",
    "ショッピングカートに入れる",
    "今すぐ購入",
    "加入购物车",
    "加入購物車",
    "放入购物车",
    "放入購物車",
    "立即购买",
    "立即購買",
    "直接購買",
    "장바구니",
    "바로구매",
    "구매하기",
    // More of the languages shops write in: bags and baskets, Central and
    // Eastern Europe's carts, Arabic, Hebrew, Persian, Hindi, Thai.
    "ajouter au sac",
    "añadir a la bolsa",
    "agregar a la bolsa",
    "agregar al carro",
    "adicionar à sacola",
    "adicionar ao cesto",
    "aggiungi alla borsa",
    "in den korb",
    "in winkelmand",
    "tilføj til kurv",
    "legg i handlevogn",
    "lägg i kundvagn",
    "kup teraz",
    "vložit do košíku",
    "koupit",
    "do košíka",
    "pridať do košíka",
    "kúpiť",
    "v košarico",
    "dodaj v košarico",
    "dodaj u košaricu",
    "u košaricu",
    "dodaj u korpu",
    "u korpu",
    "у корпу",
    "додај у корпу",
    "добави в количката",
    "в количката",
    "купи сега",
    "у кошик",
    "в кошик",
    "додати в кошик",
    "додати до кошика",
    "купити",
    "į krepšelį",
    "ielikt grozā",
    "pievienot grozam",
    "lisa ostukorvi",
    "adauga in cos",
    "στο καλάθι",
    "tambah ke keranjang",
    "masukkan ke keranjang",
    "tambah ke troli",
    "chọn mua",
    "今すぐ買う",
    "加入購物袋",
    "加入购物袋",
    "马上购买",
    "馬上購買",
    "أضف إلى السلة",
    "أضف إلى سلة",
    "أضف للسلة",
    "أضف الى السلة",
    "إضافة للسلة",
    "اضافة للسلة",
    "اضافة الى السلة",
    "اضف الى السلة",
    "اضف للسلة",
    "إضافة إلى السلة",
    "اشتر الآن",
    "اشتري الآن",
    "הוסף לסל",
    "הוספה לסל",
    "הוסיפו לסל",
    "הוסף לעגלה",
    "קנה עכשיו",
    "افزودن به سبد",
    "कार्ट में जोड़ें",
    "कार्ट में डालें",
    "अभी खरीदें",
    "ใส่ตะกร้า",
    "หยิบใส่ตะกร้า",
    "เพิ่มลงในรถเข็น",
    "เพิ่มลงตะกร้า",
    "ซื้อเลย",
    "ซื้อทันที",
    // Longer forms of the phrases above (an ASCII phrase must end at a word's
    // end: "in winkelmand" is not "in winkelmandje") and the languages of
    // the Caucasus, Central and South Asia, the Baltics, the Balkans and
    // East Africa.
    "přidat do košíku",
    "lisää koriin",
    "lisa korvi",
    "pridėti į krepšelį",
    "tilføj til indkøbskurv",
    "læg i indkøbskurv",
    "legg i handlekurven",
    "legg i kurven",
    "legg i kurv",
    "in winkelmandje",
    "toevoegen aan winkelmandje",
    "toevoegen aan winkelmand",
    "in de winkelwagen",
    "dodaj do košarice",
    "vložiť do košíka",
    "tambahkan ke keranjang",
    "masukkan ke troli",
    "setja í körfu",
    "bæta í körfu",
    "afegeix a la cistella",
    "afegir a la cistella",
    "afegeix al carret",
    "engadir ao carro",
    "engadir á cesta",
    "saskira gehitu",
    "shto në shportë",
    "shto ne shporte",
    "додади во кошничка",
    "додај во кошничка",
    "у кошык",
    "дадаць у кошык",
    "себетке қосу",
    "себетке салу",
    "səbətə əlavə et",
    "səbətə at",
    "კალათაში დამატება",
    "კალათაში",
    "ավելացնել զամբյուղ",
    "savatga qo'shish",
    "savatga qo‘shish",
    "саватга қўшиш",
    "сагсанд нэмэх",
    "сагсанд хийх",
    "کارٹ میں شامل کریں",
    "کارٹ میں ڈالیں",
    "কার্টে যোগ করুন",
    "কার্টে যোগ",
    "கூடையில் சேர்",
    "கார்ட்டில் சேர்",
    "कार्टमा थप्नुहोस्",
    "idagdag sa cart",
    "idagdag sa basket",
    "ongeza kwenye kikapu",
    "weka kwenye kikapu",
    "voeg by mandjie",
    "voeg by trollie",
    "ychwanegu i'r fasged",
    "ychwanegu at y fasged",
    "cuir sa chiseán",
    "បញ្ចូលទៅកន្ត្រក",
    "ដាក់ចូលកន្ត្រក",
    "ခြင်းထဲထည့်",
    // An auction's bid button: the lot is for sale now, its price the
    // current bid.
    "place bid",
    "place a bid",
    "bid now",
    "gebot abgeben",
    "jetzt bieten",
    "enchérir",
    "placer une enchère",
    "pujar",
    "fai un'offerta",
    "bieden",
    "licytuj",
    "入札する",
    "입찰하기",
    "出价",
    "сделать ставку",
];

/// One-word buy buttons (lower-cased), read only as a `<button>`'s or a
/// submit's whole text: "Buy" and "Köp" open other phrases too ("Buy the
/// sequel"), and a link reading "Kaufen" leaves for another shop.
/// Not "Bestellen" (it subscribes to a newsletter as often) nor a bare
/// "Add" or "Ajouter" (a wishlist's form submits one beside "Add to cart").
const BUY_WORDS: &[&str] = &[
    "buy",
    "order now",
    "jetzt bestellen",
    "kaufen",
    "commander",
    "ordina",
    "ordina ora",
    "bestel nu",
    "köp",
    "kjøp",
    "køb",
    "kup",
    "zamów",
    "objednat",
    "заказать",
    "beli",
    "keranjang",
    "購入",
    "购买",
    "購買",
    "구매",
];

/// A `<button>` or an `<input>` (a submit, once [`is_button`] holds): a
/// control of the page's own, not a link that may leave it.
fn own_control(doc: &Doc, i: NodeId) -> bool {
    doc.tag(i) == Tag::Button || doc.name(i) == "input"
}

/// Whether control `i`, whose text (lower-cased, from its first letter) is
/// `text`, asks to buy: an add-to-cart phrase, or a one-word buy button's
/// whole text on a control of the page's own.
pub(crate) fn buys(doc: &Doc, i: NodeId, text: &str) -> bool {
    buys_in_words(doc, i, text)
        || own_control(doc, i) && submits_to_cart(doc, i, past_spinner(text))
}

/// [`buys`] by its label alone: a phrase or a one-word buy button.
pub(crate) fn buys_in_words(doc: &Doc, i: NodeId, text: &str) -> bool {
    let text = past_spinner(text);
    CART_PHRASES.starts(text) || own_control(doc, i) && BUY_WORDS.contains(&text.trim_end())
}

/// What the `action` of a form that adds to a cart holds, in the URL a
/// shop's platform writes whatever language its labels are in (Shopify's
/// `/cart/add`, Magento's `checkout/cart/add/`, `basket/add`,
/// `add-to-cart`); a cart page's own form (`/cart`) and a wishlist's
/// (`wishlist/add`) are none.
const CART_ACTIONS: &[&str] = &[
    "cart/add",
    "basket/add",
    "bag/add",
    "add-to-cart",
    "add_to_cart",
    "addtocart",
];

/// Levels above a control searched for the form it submits.
const FORM_LEVELS: usize = 12;

/// Whether own control `i`, reading `text`, submits a form that adds to
/// the cart: a buy button in a language [`CART`] does not hold. A
/// `type="button"` (a quantity's plus and minus) submits nothing, and a
/// submit saying the product is sold out or offering a notice is no buy.
fn submits_to_cart(doc: &Doc, i: NodeId, text: &str) -> bool {
    let submits = doc.attr(i, "type").is_none_or(|t| {
        let t = t.trim();
        t.eq_ignore_ascii_case("submit") || t.eq_ignore_ascii_case("image")
    });
    if !submits || OUT_PHRASES.starts(text) || NOTIFY_PHRASES.starts(text) {
        return false;
    }
    let mut n = doc.nodes[i as usize].parent;
    for _ in 0..FORM_LEVELS {
        if n == u32::MAX {
            return false;
        }
        if doc.tag(n) == Tag::Form {
            return doc.attr(n, "action").is_some_and(|a| {
                let a = a.to_ascii_lowercase();
                CART_ACTIONS.iter().any(|c| a.contains(c))
            });
        }
        n = doc.nodes[n as usize].parent;
    }
    false
}

/// A button's text past the spinner a UI kit puts before its label, with
/// a screen reader's "Loading..." (Chakra's `chakra-button__spinner`): a
/// stylesheet hides it until the button is busy.
fn past_spinner(text: &str) -> &str {
    ["loading...", "loading…"]
        .iter()
        .find_map(|s| text.strip_prefix(s))
        .map_or(text, str::trim_start)
}

/// Pre-order phrases (lower-cased): the product is for sale before it
/// ships. Read on a `<button>` or a submit only: a grid's card links a
/// coming product's page with them as well.
const PRE_ORDER: &[&str] = &[
    "pre-order",
    "preorder",
    "pre order",
    "vorbestellen",
    "jetzt vorbestellen",
    "précommander",
    "pré-commander",
    "preordina",
    "voorbestellen",
    "předobjednat",
    "оформить предзаказ",
    "предзаказ",
    "予約する",
    "予約注文",
    "预购",
    "預購",
    "예약구매",
    "예약 구매",
    "예약주문",
];

/// Most text characters between two buttons of one buy box ("Add to
/// cart", a quantity, "Buy now"); no digit among them either: two cards of
/// a grid have a name and a price between their buttons.
const BETWEEN_CHARS: usize = 40;

/// The buy boxes a page has outside its navigation, header, footer and
/// sidebars, by the state of their controls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Boxes {
    /// Boxes with an enabled add-to-cart button.
    pub enabled: usize,
    /// Boxes nothing can be bought from as the page stands: a disabled
    /// add-to-cart button (a theme greys it out until a size is chosen, or
    /// when the product is sold out), a button saying the product is sold
    /// out where "Add to cart" was, or one offering a restock notice.
    pub greyed: usize,
}

/// How many buy boxes the page has outside its navigation, header, footer
/// and sidebars: its add-to-cart buttons, those next to each other counted
/// once (a product page has one buy box, often with "Add to cart" and "Buy
/// now"; a grid of products a button per card), enabled and greyed-out
/// ones apart.
pub(super) fn count(doc: &Doc) -> Boxes {
    count_apart(doc, &[])
}

/// [`count`], leaving out the controls in blocks `apart` marks (beside the
/// product: a grid of related products with a button per card); an empty
/// `apart` marks none.
pub(super) fn count_apart(doc: &Doc, apart: &[bool]) -> Boxes {
    let mut line = LineText::default();
    let mut boxes = Boxes::default();
    // The last control of each state.
    let mut last: [Option<NodeId>; 2] = [None, None];
    for b in 0..doc.len() as NodeId {
        if apart.get(b as usize).copied().unwrap_or(false) {
            continue;
        }
        let Some(enabled) = buy_control(doc, b, &mut line) else {
            continue;
        };
        // The ancestor walk last: most links are not buy controls.
        if in_chrome(doc, b) {
            continue;
        }
        let state = usize::from(!enabled);
        if !last[state].is_some_and(|a| next_to(doc, a, b)) {
            if enabled {
                boxes.enabled += 1;
            } else {
                boxes.greyed += 1;
            }
        }
        last[state] = Some(b);
    }
    boxes
}

/// Whether element `i` is a buy box's control, and then whether it is
/// enabled: an add-to-cart button, enabled or not, or a pre-order
/// `<button>`; a button (or a link playing one) saying the product is sold
/// out; a `<button>` or submit offering a restock notice ("Notify me when
/// available": as a link, it is as often a newsletter's).
fn buy_control(doc: &Doc, i: NodeId, line: &mut LineText) -> Option<bool> {
    if !is_button(doc, i) || doc.agg[i as usize].chars > LINE_CHARS {
        return None;
    }
    let text = line.opening(doc, i);
    let own = own_control(doc, i);
    if buys(doc, i, text) || own && starts(text, PRE_ORDER) {
        return (!sponsored(doc, i)).then(|| doc.attr(i, "disabled").is_none());
    }
    let notice = own && NOTIFY_PHRASES.starts(text);
    if notice || OUT_PHRASES.starts(text) {
        return Some(false);
    }
    (named_to_buy(doc, i, own) && !sponsored(doc, i)).then(|| doc.attr(i, "disabled").is_none())
}

/// A link marked `rel="sponsored"`: a review's link to a retailer (the
/// mark search engines ask of paid links), never the page's own cart.
fn sponsored(doc: &Doc, i: NodeId) -> bool {
    doc.tag(i) == Tag::A
        && doc.attr(i, "rel").is_some_and(|r| {
            r.split_ascii_whitespace()
                .any(|t| t.eq_ignore_ascii_case("sponsored"))
        })
}

/// Class/id words of an add-to-cart control, in the English a shop's theme
/// is written in whatever language its pages speak (nopCommerce's
/// `add-to-cart-button`, Magento's `tocart`, WooCommerce's
/// `add_to_cart_button`).
const ADD_NAMES: &[&str] = &[
    "add-to-cart",
    "add_to_cart",
    "addtocart",
    "add-to-basket",
    "add_to_basket",
    "addtobasket",
    "add-to-bag",
    "add_to_bag",
    "addtobag",
    "add-cart",
    "tocart",
];

/// Class/id words of a buy-now control, read on a `<button>` or a submit
/// only: a review's link to a retailer is a `buy-button` too.
const BUY_NAMES: &[&str] = &["buy-now", "buy_now", "buynow", "buy-button", "btn-buy"];

/// Whether control `i` is named for buying by its class or id: a buy
/// button whose label is in a language [`CART`] does not hold.
fn named_to_buy(doc: &Doc, i: NodeId, own: bool) -> bool {
    let names = doc.class_id_role(i);
    matches_any_token(names, ADD_NAMES) || own && matches_any_token(names, BUY_NAMES)
}

/// Attributes that hold a control's price (`data-price="74.90"`).
const PRICE_ATTRS: &[&str] = &[
    "data-price",
    "price",
    "data-product-price",
    "data-price-amount",
];

/// Attributes that name the currency of [`PRICE_ATTRS`].
const CURRENCY_ATTRS: &[&str] = &["data-currency", "currency", "data-price-currency"];

/// Levels above an add-to-cart control searched for its price attribute
/// (the control, its wrapper, its form).
const PRICE_LEVELS: usize = 2;

/// A price an add-to-cart control carries in an attribute, for pages that
/// show it only by script.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ControlPrice {
    /// Normalised amount ("74.90").
    pub amount: String,
    /// The currency an attribute beside it names.
    pub currency: Option<&'static str>,
    /// The attribute's value.
    pub raw: String,
}

/// The price the page's add-to-cart controls carry in an attribute
/// (`<button data-price="74.90" data-currency="EUR">Ajouter au panier</button>`,
/// or on its wrapper or form), outside `chrome`. Only a value with a decimal
/// mark is read: themes also write cents ("7490"). Controls that disagree (a
/// grid's cards) give none.
pub(crate) fn cart_price(doc: &Doc, chrome: &dyn Fn(NodeId) -> bool) -> Option<ControlPrice> {
    let mut line = LineText::default();
    let mut found: Option<ControlPrice> = None;
    for i in 0..doc.len() as NodeId {
        if !reads_cart(doc, i, &mut line) || chrome(i) {
            continue;
        }
        let Some(price) = attribute_price(doc, i) else {
            continue;
        };
        match &found {
            Some(f) if f.amount != price.amount => return None,
            Some(_) => {}
            None => found = Some(price),
        }
    }
    found
}

/// The price attribute of control `i` or of its [`PRICE_LEVELS`] nearest
/// ancestors, with a currency attribute beside it.
fn attribute_price(doc: &Doc, i: NodeId) -> Option<ControlPrice> {
    let mut cur = i;
    for _ in 0..=PRICE_LEVELS {
        let raw = PRICE_ATTRS.iter().find_map(|a| doc.attr(cur, a));
        if let Some(raw) = raw.filter(|r| r.len() <= 32 && r.contains(['.', ','])) {
            let amount = super::money::parse_amount(raw, true)?;
            // A placeholder the script fills ("0.00") is no price.
            if amount.parse::<f64>().map_or(true, |a| a <= 0.0) {
                return None;
            }
            let currency = CURRENCY_ATTRS
                .iter()
                .find_map(|a| doc.attr(cur, a))
                .and_then(super::money::code_of);
            return Some(ControlPrice {
                amount,
                currency,
                raw: raw.to_string(),
            });
        }
        cur = doc.nodes[cur as usize].parent;
        if cur == u32::MAX {
            return None;
        }
    }
    None
}

/// Whether little text and no number stands between buttons `a` and `b`.
fn next_to(doc: &Doc, a: NodeId, b: NodeId) -> bool {
    let mut chars = 0;
    for id in doc.end(a)..b {
        if doc.is_element(id) {
            continue;
        }
        let t = doc.text(id).trim();
        chars += t.len();
        if chars > BETWEEN_CHARS || t.bytes().any(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    true
}

/// Reads short elements' text, lower-cased (its own text, or an input's
/// value), with two buffers kept between elements: a page has hundreds of
/// links to read.
#[derive(Default)]
pub(crate) struct LineText {
    raw: String,
    lower: String,
}

impl LineText {
    /// Element `i`'s text lower-cased (a control without text: its
    /// `value`, its `aria-label`, else the `alt` of the image it shows, as
    /// older shops draw their buttons), as `str::to_lowercase` writes it.
    pub(crate) fn read(&mut self, doc: &Doc, i: NodeId) -> &str {
        let raw: &str = if doc.agg[i as usize].chars == 0 {
            doc.attr(i, "value")
                .or_else(|| doc.attr(i, "aria-label"))
                .or_else(|| image_alt(doc, i))
                .unwrap_or("")
        } else {
            doc.plain_text_into(i, &mut self.raw);
            &self.raw
        };
        lowered_into(raw, &mut self.lower);
        &self.lower
    }

    /// [`LineText::read`] from its first letter or digit ("✓ In stock",
    /// "» Add to cart"): what a line's phrases are matched against.
    pub(crate) fn opening(&mut self, doc: &Doc, i: NodeId) -> &str {
        self.read(doc, i)
            .trim_start_matches(|c: char| !c.is_alphanumeric())
    }
}

/// `raw` lower-cased into `out` (cleared first), as `str::to_lowercase`
/// writes it; ASCII without a new string.
pub(crate) fn lowered_into(raw: &str, out: &mut String) {
    out.clear();
    if raw.is_ascii() {
        out.push_str(raw);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&raw.to_lowercase());
    }
}

/// Element `i` is an add-to-cart control, enabled or not: a short button,
/// submit or link whose text [`buys`].
fn reads_cart(doc: &Doc, i: NodeId, line: &mut LineText) -> bool {
    is_button(doc, i)
        && doc.agg[i as usize].chars <= LINE_CHARS
        && buys(doc, i, line.opening(doc, i))
}

/// Nodes inside a control searched for the image it shows.
const IMAGE_NODES: u32 = 6;

/// The `alt` of an image input, or of the first image among the few nodes
/// inside control `i`.
fn image_alt(doc: &Doc, i: NodeId) -> Option<&str> {
    if doc.name(i) == "input" {
        return doc.attr(i, "alt");
    }
    let end = doc.end(i).min(i + 1 + IMAGE_NODES);
    (i + 1..end)
        .find(|&n| doc.name(n) == "img")
        .and_then(|n| doc.attr(n, "alt"))
}

/// A button, a submit input, or a link or element playing one.
pub(crate) fn is_button(doc: &Doc, i: NodeId) -> bool {
    // Asked of every node of the page: the tag first, the attributes last.
    match doc.tag(i) {
        Tag::Button | Tag::A => true,
        Tag::Input
            if doc.attr(i, "type").is_some_and(|t| {
                t.eq_ignore_ascii_case("submit")
                    || t.eq_ignore_ascii_case("button")
                    || t.eq_ignore_ascii_case("image")
            }) =>
        {
            true
        }
        _ => doc.role(i) == Some("button"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59: a buy box drawn as images (older Japanese, Korean and
    /// Taiwanese shops), or a button holding only an icon and a label.
    #[test]
    fn a_control_drawn_as_an_image_reads_its_alt() {
        let doc = Doc::parse_str(
            r##"<form><input type=image src=/c.gif alt="カートに入れる"></form>
            <a href="#none" onclick="buy()"><img src=/b.gif alt="장바구니 담기"></a>
            <button aria-label="Add to cart"><svg></svg></button>
            <a href=/x><img src=/logo.png alt="Home"></a>"##,
        );
        let mut line = LineText::default();
        let mut carts = Vec::new();
        for i in 0..doc.len() as NodeId {
            if is_button(&doc, i) {
                let text = line.read(&doc, i).to_string();
                carts.push((text.clone(), starts(&text, CART)));
            }
        }
        let names: Vec<(&str, bool)> = carts.iter().map(|(t, c)| (t.as_str(), *c)).collect();
        assert_eq!(
            names,
            [
                ("カートに入れる", true),
                ("장바구니 담기", true),
                ("add to cart", true),
                ("home", false)
            ]
        );
    }

    /// Issue 59: a buy button's price attribute, for a page that shows the
    /// price by script.
    #[test]
    fn a_cart_controls_price_attribute() {
        let price = |html: &str| cart_price(&Doc::parse_str(html), &|_| false);
        let p = price(
            r#"<h1>Lampe</h1><button data-price="74.90" data-currency="EUR">Ajouter au panier</button>"#,
        )
        .expect("a price");
        assert_eq!((p.amount.as_str(), p.currency), ("74.90", Some("EUR")));
        // On the form around the button, in another language.
        let p = price(
            r#"<form data-product-price="1299.00"><div><button>In den Warenkorb</button></div></form>"#,
        );
        assert_eq!(p.map(|p| p.amount).as_deref(), Some("1299.00"));
        // Cents, another control, or a grid whose cards disagree: none.
        assert_eq!(
            price(r#"<button data-price="7490">Add to cart</button>"#),
            None
        );
        assert_eq!(
            price(r#"<button data-price="0.00">Add to cart</button>"#),
            None
        );
        assert_eq!(
            price(r#"<button data-price="74.90">Compare</button>"#),
            None
        );
        assert_eq!(
            price(
                r#"<button data-price="74.90">Add to cart</button>
                <button data-price="64.90">Add to cart</button>"#
            ),
            None
        );
    }

    /// Issue 59: a buy button in a language no phrase list holds is known
    /// by the English its theme names it with; a review's paid link to a
    /// retailer is no buy box, whatever it says or is named.
    #[test]
    fn a_control_named_to_buy_by_its_class_and_a_sponsored_link() {
        let boxes = |html: &str| count(&Doc::parse_str(html));
        let one = Boxes {
            enabled: 1,
            greyed: 0,
        };
        for html in [
            // Labels no phrase of ours reads: only the class names them.
            "<h1>Kikombe</h1><button class='btn add-to-cart'>Ongeza kikapuni</button>",
            "<h1>Kikombe</h1><button class='action tocart primary'>Ongeza</button>",
            "<h1>Kikombe</h1><input type=submit id=buy-now value='Nunua sasa'>",
            "<h1>Kikombe</h1><a class='product-add-to-cart' href=#>Ongeza</a>",
        ] {
            assert_eq!(boxes(html), one, "{html}");
        }
        for html in [
            // "Buy" names only a button: a link so named leaves for a shop.
            "<h1>Kikombe</h1><a class=buy-button href=/x>Nunua</a>",
            "<h1>Kikombe</h1><button class=add-to-wishlist>Hifadhi</button>",
            "<h1>Review</h1><a rel='nofollow sponsored' class=add-to-cart href=/x>View at Shop</a>",
            "<h1>Review</h1><a rel=sponsored href=/x>Buy now</a>",
        ] {
            assert_eq!(boxes(html), Boxes::default(), "{html}");
        }
        // A greyed one keeps its state.
        assert_eq!(
            boxes("<button class=add-to-cart disabled>Ongeza</button>").greyed,
            1
        );
    }

    #[test]
    fn a_line_lowers_as_to_lowercase_does_with_one_buffer() {
        let doc = Doc::parse_str(
            "<a>Add To CART</a><button>In Den Warenkorb ÄÖÜ</button>\
             <button>ΑΓΟΡΑΣΕ ΤΩΡΑ ΟΔΟΣ</button><input type=submit value='Buy NOW'>",
        );
        let mut line = LineText::default();
        let mut seen = Vec::new();
        for i in 0..doc.len() as NodeId {
            if is_button(&doc, i) {
                let want = if doc.agg[i as usize].chars == 0 {
                    doc.attr(i, "value").unwrap_or("").to_lowercase()
                } else {
                    doc.plain_text(i).to_lowercase()
                };
                assert_eq!(line.read(&doc, i), want);
                seen.push(want);
            }
        }
        // The Greek line keeps its final sigma (ς), as str::to_lowercase.
        assert_eq!(
            seen,
            [
                "add to cart",
                "in den warenkorb äöü",
                "αγορασε τωρα οδος",
                "buy now"
            ]
        );
    }
}
