#include "pricing_edits.hpp"

#include <algorithm>

#include <QObject>

namespace gpuplan::app {

namespace fs = std::filesystem;

std::vector<PriceBookFile> readPriceBooks(const fs::path& folder, const Catalog& catalog) {
    std::vector<PriceBookFile> books;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            books.push_back({entry.path(), {}, {}});
    std::sort(books.begin(), books.end(),
              [](const PriceBookFile& a, const PriceBookFile& b) { return a.file < b.file; });
    for (PriceBookFile& b : books) {
        try {
            b.book = loadPriceBook(b.file, catalog);
        } catch (const std::exception& e) {
            b.error = QString::fromUtf8(e.what());
        }
    }
    return books;
}

PricingEdit priceWithBook(const Scenario& s, const PriceBook& book, const Catalog& catalog) {
    PricingEdit e{s, {}};
    e.after.pricing = pricingOf(book, catalog);
    e.text = QObject::tr("Price with %1 (%2)")
                 .arg(QString::fromStdString(book.name), QString::fromStdString(book.asOf));
    return e;
}

PricingEdit removePricing(const Scenario& s) {
    PricingEdit e{s, QObject::tr("Remove prices")};
    e.after.pricing.reset();
    return e;
}

int priceBookOf(const Scenario& s, const std::vector<PriceBookFile>& books) {
    if (!s.pricing) return -1;
    for (std::size_t i = 0; i < books.size(); ++i)
        if (books[i].error.isEmpty() && books[i].book.name == s.pricing->book &&
            books[i].book.asOf == s.pricing->asOf)
            return static_cast<int>(i);
    return -1;
}

}  // namespace gpuplan::app
