//! E-commerce mode end to end: a generated shop on loopback with two product
//! layouts (A/B), listing pages, reordered and missing rows, and a layout
//! change in the middle of the crawl; the export is compared with the
//! generator's truth and the re-learned template is observed.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use support::*;

const PRODUCTS: usize = 60;
/// Product pages served before layout A is replaced by layout C.
const SWITCH_AFTER: usize = 26;

struct Item {
    name: String,
    price: String,
    sku: String,
    brand: Option<String>,
}

fn item(id: usize) -> Item {
    const NOUNS: [&str; 6] = [
        "Kettle", "Toaster", "Blender", "Grinder", "Skillet", "Teapot",
    ];
    const ADJ: [&str; 5] = ["Steel", "Classic", "Compact", "Deluxe", "Nordic"];
    Item {
        name: format!("{} {} {}", ADJ[id % 5], NOUNS[id % 6], 100 + id),
        price: format!("${}.{:02}", 10 + id * 3, (id * 7) % 100),
        sku: format!("SKU-{:05}", 7000 + id * 13),
        brand: (id % 5 != 0).then(|| ["Acme", "Brava", "Corvo", "Dalla"][id % 4].to_string()),
    }
}

fn rows(it: &Item, id: usize, open: &str, mid: &str, close: &str) -> String {
    let mut rows = vec![format!("{open}SKU:{mid}{}{close}", it.sku)];
    if let Some(b) = &it.brand {
        rows.push(format!("{open}Brand:{mid}{b}{close}"));
    }
    rows.push(format!("{open}Warranty:{mid}2 years{close}"));
    if id % 3 == 0 {
        rows.reverse(); // reordered blocks
    }
    rows.concat()
}

fn chrome(body: &str, title: &str) -> String {
    format!(
        "<html><head><title>{title} | Kitchen Shop</title></head><body>\
         <header id=top><a href=/>Kitchen Shop</a> <a href=/category/1>Kitchen</a> <a href=/help>Help</a></header>\
         {body}<footer>Kitchen Shop Ltd, 1 Market Street. Free returns within 30 days.</footer></body></html>"
    )
}

/// Layout A (even ids, until the switch), B (odd ids), C (even ids after).
fn product_page(id: usize, switched: bool) -> String {
    let it = item(id);
    let body = if id % 2 == 1 {
        format!(
            "<section class=item-view><div class=info><h2 class=item-name>{}</h2>\
             <div class=cost><span class=amount>{}</span></div>\
             <dl class=facts>{}</dl></div><p class=note>Ships in 2 days.</p></section>",
            it.name,
            it.price,
            rows(&it, id, "<dt>", "</dt><dd>", "</dd>")
        )
    } else if !switched {
        format!(
            "<main><div class=product><h1 class=title>{}</h1><p class=price>{}</p>\
             <table class=specs>{}</table><p>Order before noon for same-day dispatch.</p></div></main>",
            it.name,
            it.price,
            rows(&it, id, "<tr><th>", "</th><td>", "</td></tr>")
        )
    } else {
        format!(
            "<article class=pdp><header class=pdp-head><h1 class=pdp-title>{}</h1></header>\
             <div class=pdp-buy><b class=pdp-price>{}</b> <button>Add to basket</button></div>\
             <ul class=pdp-specs>{}</ul></article>",
            it.name,
            it.price,
            rows(&it, id, "<li><strong>", "</strong> ", "</li>")
        )
    };
    chrome(&body, &it.name)
}

fn listing(page: usize) -> String {
    let links: String = (page * 10..(page * 10 + 10).min(PRODUCTS))
        .map(|id| {
            format!(
                "<li><a href=/product/{id}>{}</a> {}</li>",
                item(id).name,
                item(id).price
            )
        })
        .collect();
    let next = if (page + 1) * 10 < PRODUCTS {
        format!("<a href=/category/{}>Next page</a>", page + 1)
    } else {
        String::new()
    };
    chrome(
        &format!("<main><h1>Kitchen</h1><ul class=grid>{links}</ul>{next}</main>"),
        "Kitchen",
    )
}

#[test]
fn an_ecommerce_crawl_learns_applies_and_relearns_templates() {
    let served = Arc::new(AtomicUsize::new(0));
    let counter = served.clone();
    let host = Host::start("127.0.0.50", move |path, _| {
        if path == "/" {
            return html(&listing(0));
        }
        if let Some(p) = path
            .strip_prefix("/category/")
            .and_then(|p| p.parse::<usize>().ok())
        {
            return html(&listing(p));
        }
        if let Some(id) = path
            .strip_prefix("/product/")
            .and_then(|p| p.parse::<usize>().ok())
            .filter(|&i| i < PRODUCTS)
        {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            return html(&product_page(id, n >= SWITCH_AFTER));
        }
        status(404)
    });
    let dir = scratch("shop");
    let cfg = config(&dir, "min_delay_ms = 0\nmax_depth = 20\nsitemaps = false");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{} mode=ecommerce\n", host.url("/")))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = crawl_once(&cfg, &seeds);
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        log.matches("layout changed").count(),
        1,
        "one layout change: {log}"
    );
    assert_eq!(
        served.load(Ordering::SeqCst),
        PRODUCTS,
        "every product page fetched once"
    );

    let records = export(&cfg);
    // Every product page has a product record, the learning samples too.
    let typed = records.iter().filter(|r| r["type"] == "product").count();
    assert_eq!(typed, PRODUCTS, "every product page is a product record");
    let products: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["fields"].is_object()).collect();
    let (mut right, mut checked) = (0, 0);
    for r in &products {
        let url = r["url"].as_str().unwrap_or_default();
        let id: usize = url
            .rsplit('/')
            .next()
            .and_then(|i| i.parse().ok())
            .unwrap_or(usize::MAX);
        let it = item(id);
        let f = &r["fields"];
        checked += 1;
        if f["name"][0] == it.name.as_str()
            && f["price"][0] == it.price.as_str()
            && f["sku"][0] == it.sku.as_str()
        {
            right += 1;
        } else {
            eprintln!("wrong: {url} {f}");
        }
        assert_eq!(f["currency"][0], "USD", "{url}: {f}");
        // A product without a brand has no brand field.
        if it.brand.is_none() {
            assert!(f["brand"].is_null(), "{url}: {f}");
        }
    }
    // Pages collected while (re)learning carry no fields (their product
    // record only): 4 samples and 4 check pages, the last of which gets the
    // new template's fields, so 7 per learning, 3 learnings.
    assert!(
        checked >= PRODUCTS - 21,
        "{checked} product records with fields"
    );
    assert!(
        right as f64 >= 0.95 * checked as f64,
        "{right} of {checked} right"
    );

    // The layout change was noticed and the template re-learned as v2.
    let out = trawl()
        .args([
            "templates",
            "list",
            "--data",
            &dir.join("storage").to_string_lossy(),
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let list = String::from_utf8_lossy(&out.stdout);
    assert_eq!(list.lines().count(), 2, "two product layouts: {list}");
    assert!(
        list.contains("cluster 0\tv2\t"),
        "layout A replaced by C: {list}"
    );
    assert!(
        list.contains("cluster 1\tv1\t"),
        "layout B unchanged: {list}"
    );
    assert!(products.iter().any(|r| r["template_version"] == 2));
}
