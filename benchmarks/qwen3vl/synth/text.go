package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// nounKind is "kind|name": kind selects the category subtree.
type nounKind string

func (n nounKind) kind() string { k, _, _ := strings.Cut(string(n), "|"); return k }
func (n nounKind) name() string { _, v, _ := strings.Cut(string(n), "|"); return v }

var nouns = []nounKind{
	"shirt|Polo Shirt", "shirt|Oxford Shirt", "shirt|Graphic Tee", "shirt|Henley",
	"shoe|Running Shoes", "shoe|Leather Loafers", "shoe|Trail Sneakers", "shoe|Chelsea Boots",
	"bag|Backpack", "bag|Tote Bag", "bag|Messenger Bag", "bag|Kids' \"Explorer\" Backpack",
	"home|Ceramic Mug", "home|Throw Pillow", "home|Linen Towel Set", "home|Scented Candle",
	"beauty|Lip Balm", "beauty|Face Serum", "beauty|Shampoo Bar", "beauty|Eau de Parfum",
	"toy|Wooden Puzzle", "toy|Plush Bear", "toy|Dress-Up Set", "toy|Building Blocks",
	"jewel|Silver Ring", "jewel|Pendant Necklace", "jewel|Hoop Earrings",
	"sport|Yoga Mat", "sport|Water Bottle", "sport|Cycling Gloves",
	"food|Dark Chocolate Bar", "food|Crème Brûlée Tea", "food|Hot Sauce",
}

var brandNames = []string{
	"Giorgio Armani", "Trail & Co.", "L'Oréal", "Björn Borg", "Levi's", "Acme",
	"Nordwand", "Maison Lumière", "Café Olé", "O'Neill", "Kid\\Box", "\"Studio 54\"",
	"Ōkami", "Brand—X", "Fjällräven", "Mötley Goods", "Sunny 🌞 Days", "Zeta",
}

var colors = []string{
	"Navy", "Black", "White", "Olive", "Rosé", "Burgundy", "Sand", "Sky Blue", "Charcoal", "Crème",
}

var sizeNames = []string{"S", "M", "L", "XL", "One Size", "250 ml", "12\"", "EU 42", "3–5 yrs"}

// titleForms take brand, color, noun, size.
var titleForms = []string{
	"%[1]s %[3]s - %[2]s, Size %[4]s",
	"%[3]s | %[1]s | %[2]s",
	"%[1]s '%[3]s' in %[2]s (%[4]s)",
	"%[2]s %[3]s by %[1]s",
	"%[3]s – %[2]s / %[4]s",
}

// categoryTree maps a noun kind to its " > "-separated categories, in the
// style of the Shopify product taxonomy.
var categoryTree = map[string][]string{
	"shirt": {
		"Apparel & Accessories > Clothing > Shirts & Tops > Polo Shirts",
		"Apparel & Accessories > Clothing > Shirts & Tops > T-Shirts",
		"Apparel & Accessories > Clothing > Shirts & Tops > Dress Shirts",
	},
	"shoe": {
		"Apparel & Accessories > Shoes > Athletic Shoes > Running Shoes",
		"Apparel & Accessories > Shoes > Loafers & Slip-Ons",
		"Apparel & Accessories > Shoes > Boots > Chelsea Boots",
	},
	"bag": {
		"Luggage & Bags > Backpacks",
		"Luggage & Bags > Tote Bags",
		"Luggage & Bags > Messenger Bags",
		"Men's Clothing > Bags",
	},
	"home": {
		"Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs",
		"Home & Garden > Decor > Throw Pillows",
		"Home & Garden > Linens & Bedding > Towels",
		"Home & Garden > Decor > Home Fragrances > Candles",
	},
	"beauty": {
		"Health & Beauty > Personal Care > Cosmetics > Lip Care",
		"Health & Beauty > Personal Care > Cosmetics > Skin Care > Serums",
		"Health & Beauty > Personal Care > Hair Care > Shampoo & Conditioner",
		"Health & Beauty > Personal Care > Cosmetics > Perfume & Cologne",
	},
	"toy": {
		"Toys & Games > Puzzles > Jigsaw Puzzles",
		"Toys & Games > Toys > Dolls, Playsets & Toy Figures > Stuffed Animals",
		"Toys & Games > Kids' \"Dress-Up\" Sets",
		"Toys & Games > Toys > Building Toys > Construction Set Toys",
	},
	"jewel": {
		"Apparel & Accessories > Jewelry > Rings",
		"Apparel & Accessories > Jewelry > Necklaces",
		"Apparel & Accessories > Jewelry > Earrings",
	},
	"sport": {
		"Sporting Goods > Exercise & Fitness > Yoga & Pilates > Yoga Mats",
		"Sporting Goods > Outdoor Recreation > Water Bottles",
		"Sporting Goods > Outdoor Recreation > Cycling > Cycling Apparel > Gloves",
	},
	"food": {
		"Food, Beverages & Tobacco > Food Items > Candy & Chocolate",
		"Food, Beverages & Tobacco > Beverages > Tea & Infusions",
		"Food, Beverages & Tobacco > Food Items > Condiments & Sauces > Hot Sauce",
		"Food > Path\\With\\Backslashes",
	},
}

// allCategories lists every category, for distractors, plus a few odd
// ones that only appear as distractors.
var allCategories = func() []string {
	var all []string
	for _, k := range []string{"shirt", "shoe", "bag", "home", "beauty", "toy", "jewel", "sport", "food"} {
		all = append(all, categoryTree[k]...)
	}
	return append(all,
		"Arts & Entertainment > Hobbies & Creative Arts > Crafts > Odd\nNewline",
		"Électronique > Accessoires > Câbles",
		"Media > Books > Children's Books",
		"Office Supplies > \"General\" Supplies",
		"Vehicles & Parts > Tab\tSeparated",
	)
}()

func categoryFor(kind string, rng *rand.Rand) string {
	c := categoryTree[kind]
	return c[rng.IntN(len(c))]
}

// describe writes plain, multi-line or HTML (sometimes with script
// and style blocks, as scraped storefront descriptions often have).
func describe(rng *rand.Rand, brand, color, noun string, secondhand bool) string {
	sentences := []string{
		fmt.Sprintf("The %s %s from %s.", strings.ToLower(color), strings.ToLower(noun), brand),
		"Made with 100% organic cotton & recycled fibres.",
		"Machine washable at 30°C.",
		"Our best-seller — now in a new colour!",
		"Ships in 2–3 business days. Free returns.",
		"Dimensions: 30 cm × 20 cm × 10 cm.",
		"Don't miss the \"limited edition\" run.",
		"Handmade in Portugal 🇵🇹 by local artisans.",
		"Compatible with C:\\Program Files\\ paths? No, it's a bag.",
		"Care: hand wash only;\tdry flat.",
	}
	if secondhand {
		sentences = append(sentences, "Pre-owned, in very good condition. Minor signs of wear.")
	}
	rng.Shuffle(len(sentences), func(a, b int) { sentences[a], sentences[b] = sentences[b], sentences[a] })
	body := sentences[:2+rng.IntN(4)]
	switch rng.IntN(4) {
	case 0:
		return strings.Join(body, " ")
	case 1:
		return strings.Join(body, "\n")
	case 2:
		var b strings.Builder
		b.WriteString(`<div class="product-description">`)
		for _, s := range body {
			b.WriteString("<p>" + strings.ReplaceAll(s, "&", "&amp;") + "</p>")
		}
		b.WriteString("<ul><li>Colour: " + color + "</li><li>Brand: " + brand + "</li></ul></div>")
		return b.String()
	default:
		return `<style>.desc{font-family:"Helvetica Neue",sans-serif}</style>` +
			`<script>var sku = 'SKU\\` + fmt.Sprint(rng.IntN(100000)) + `'; window.dataLayer = window.dataLayer || [];</script>` +
			`<div class="desc">` + strings.Join(body, "<br>\r\n") + `</div>`
	}
}
