"""A generated book shop in SWDE's layout whose "Product Information" rows come and go.

Usage: python3 scripts/gen_rowshop.py OUT_DIR [SEED] [--specs]
       (then: trawl eval --dataset OUT_DIR --draws 20 [--check 4])

With --specs, the truth also lists the specification rows a template reads as
`spec:Format`, `spec:Series`, … (files `book-rowshop-spec:Series.txt`), the
optional ones empty on pages without them.

Optional rows (Series, Edition, Language, Dimensions) move the ISBN, publisher and
date rows to different positions from page to page; a vendor line above the title
and customer reviews carry other years and dates. Used for docs/BENCHMARKS.md
("Templates that check themselves"); tests/templates.rs has the same shop in Rust.
"""
import random, os, sys
args = [a for a in sys.argv[1:] if a != "--specs"]; specs = "--specs" in sys.argv
out = args[0]; seed = int(args[1]) if len(args) > 1 else 1
random.seed(seed)
site = os.path.join(out, "rowshop"); gt = os.path.join(out, "groundtruth")
os.makedirs(site, exist_ok=True); os.makedirs(gt, exist_ok=True)
first = ["Anna","Brian","Carla","David","Elena","Frank","Grace","Henry","Irene","James"]
last = ["Moss","Hale","Quinn","Reyes","Stone","Tate","Vance","Wolfe","Young","Zane"]
words = ["River","Night","Garden","Empire","Silent","Winter","Glass","Shadow","Iron","Summer","Last","Secret"]
pubs = ["Zebra Books","Penguin","Harper","Orbit","Tor","Vintage","Scribner","Knopf"]
vendors = ["BookCo","ReadMore","PageHouse"]
fmts = ["Paperback","Hardcover","Mass Market"]
months = ["January","February","March","April","May","June","July","August","September","October","November","December"]
cols = {a: [] for a in ["title","author","isbn_13","publisher","publication_date"]}
spec_rows = ["Format","Series","Edition","Pages","Language","Dimensions"]
if specs:
    cols.update({"spec:" + k: [] for k in spec_rows})
N = 60
for i in range(N):
    title = " ".join(random.sample(words, random.randint(2,4)))
    author = random.choice(first) + " " + random.choice(last)
    isbn = "978" + "".join(random.choice("0123456789") for _ in range(10))
    pub = random.choice(pubs)
    year = random.randint(1995, 2010)
    date = f"{random.choice(months)} {random.randint(1,28)}, {year}"
    fmt = random.choice(fmts)
    rows = []
    rows.append(("Format", fmt))
    if random.random() < 0.5: rows.append(("Series", random.choice(words) + " Series"))
    if random.random() < 0.4: rows.append(("Edition", random.choice(["1st","2nd","Reprint"])))
    rows.append(("Pages", str(random.randint(120, 800))))
    if random.random() < 0.3: rows.append(("Language", "English"))
    rows.append(("ISBN-13", isbn))
    rows.append(("Publisher", pub))
    rows.append(("Publication Date", date))
    if random.random() < 0.5: rows.append(("Dimensions", f"{random.randint(5,9)} x {random.randint(6,11)} in"))
    lis = "".join(f"<li><b>{k}:</b> {v}</li>" for k, v in rows)
    revs = ""
    for r in range(random.choice([0,0,1,2,3])):
        rd = f"{random.choice(months)} {random.randint(1,28)}, {random.randint(2005,2010)}"
        revs += f"<div class=review><p class=reviewer>{random.choice(first)} wrote on {rd}</p><p>I {'really ' * random.randint(0,2)}liked this book about the {random.choice(words).lower()}. Would read again and recommend to friends.</p></div>"
    price = f"${random.randint(5,40)}.{random.randint(0,99):02d}"
    html = f"""<html><head><title>{title}: {author}: {fmt}</title></head><body>
<div id=header><a href=/>BookCo Home</a> <a href=/cart>Cart</a> <a href=/help>Help</a> <form><input name=q><button>Search</button></form></div>
<div id=main><div class=crumbs><a href=/>Books</a> &gt; <a href=/fiction>Fiction</a></div>
<div class=product><p class=vendorline>{random.choice(vendors)} / {year} / {fmt}</p><h1>{title}</h1>
<p class=byline>by <a href=/a/{i}>{author}</a></p>
<p class=price>Our price: {price}</p><p>Usually ships in 24 hours. Free shipping on orders over $25.</p>
<div class=info><h3>Product Information</h3><ul>{lis}</ul></div>
<div class=reviews><h3>Customer Reviews</h3>{revs or '<p>No reviews yet. Be the first to write one.</p>'}</div>
</div></div>
<div id=footer>Copyright BookCo. All rights reserved. Privacy policy and terms of use apply to every order.</div></body></html>"""
    name = f"{i:04d}"
    open(os.path.join(site, name + ".htm"), "w").write(html)
    for a, v in [("title",title),("author",author),("isbn_13",isbn),("publisher",pub),("publication_date",date)]:
        cols[a].append(f"{name}\t1\t{v}")
    if specs:
        have = dict(rows)
        for k in spec_rows:
            cols["spec:" + k].append(f"{name}\t1\t{have[k]}" if k in have else f"{name}\t0")
for a, lines in cols.items():
    open(os.path.join(gt, f"book-rowshop-{a}.txt"), "w").write(f"book\trowshop\t{a}\n{N}\t{N}\n" + "\n".join(lines) + "\n")
