// HitFilter: a tokenizer and a recursive-descent parser that emit SQL text only from fixed
// keywords and registered column names; numbers and strings go out as bound parameters.
#include "HitFilter.h"

#include "SubstructureFunction.h"
#include "chem/SubstructureQuery.h"

#include <algorithm>
#include <cctype>

namespace pw::hits {

const std::vector<std::string>& interactionKinds() {
    static const std::vector<std::string> kinds{"hbond", "saltbridge", "pistack", "halogen",
                                                "hydrophobic"};
    return kinds;
}

namespace {

enum class Tok { Ident, Number, String, Op, LParen, RParen, Comma, End };

struct Token {
    Tok kind = Tok::End;
    std::string text; // identifier (as written), operator, string contents
    double number = 0;
    int column = 1; // 1-based position of its first character
};

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<Token> tokenize(const std::string& s) {
    std::vector<Token> out;
    size_t i = 0;
    while (true) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        Token t;
        t.column = static_cast<int>(i) + 1;
        if (i >= s.size()) {
            out.push_back(t);
            return out;
        }
        const char c = s[i];
        const bool prevIsOperand =
            !out.empty() && (out.back().kind == Tok::Ident || out.back().kind == Tok::Number ||
                             out.back().kind == Tok::String || out.back().kind == Tok::RParen);
        const bool signedNumber =
            (c == '-' || c == '+') && !prevIsOperand && i + 1 < s.size() &&
            (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '.');
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
                ++j;
            t.kind = Tok::Ident;
            t.text = s.substr(i, j - i);
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || signedNumber) {
            size_t used = 0;
            try {
                t.number = std::stod(s.substr(i), &used);
            } catch (const std::exception&) {
                throw FilterError(t.column, "expected a number");
            }
            t.kind = Tok::Number;
            i += used;
            if (i < s.size() && (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_'))
                throw FilterError(static_cast<int>(i) + 1, "expected an operator after a number");
        } else if (c == '\'' || c == '"') {
            size_t j = i + 1;
            std::string text;
            while (true) {
                if (j >= s.size())
                    throw FilterError(t.column, std::string("unterminated string: expected a "
                                                            "closing ") +
                                                    c);
                if (s[j] == c) {
                    if (j + 1 < s.size() && s[j + 1] == c) { // doubled quote: one quote
                        text += c;
                        j += 2;
                        continue;
                    }
                    break;
                }
                text += s[j++];
            }
            t.kind = Tok::String;
            t.text = text;
            i = j + 1;
        } else if (c == '(' || c == ')' || c == ',') {
            t.kind = c == '(' ? Tok::LParen : c == ')' ? Tok::RParen : Tok::Comma;
            t.text = std::string(1, c);
            ++i;
        } else if (c == '<' || c == '>' || c == '=' || c == '!') {
            std::string op(1, c);
            if (i + 1 < s.size() && (s[i + 1] == '=' || (c == '<' && s[i + 1] == '>')))
                op += s[i + 1];
            if (op == "!")
                throw FilterError(t.column, "expected != (a lone ! is not an operator)");
            t.kind = Tok::Op;
            t.text = op;
            i += op.size();
        } else {
            throw FilterError(t.column, std::string("unexpected character '") + c + "'");
        }
        out.push_back(std::move(t));
    }
}

class Parser {
public:
    Parser(const std::string& text, const HitStore& store)
        : tokens_(tokenize(text)), store_(store) {}

    SqlFragment parse() {
        if (peek().kind == Tok::End)
            throw FilterError(1, "empty expression: expected a condition such as 'mw < 500'");
        expr();
        if (peek().kind != Tok::End)
            throw FilterError(peek().column,
                              "expected and, or or the end, got '" + describe(peek()) + "'");
        return std::move(out_);
    }

private:
    const Token& peek() const { return tokens_[pos_]; }
    const Token& take() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
    bool keyword(const char* k) const {
        return peek().kind == Tok::Ident && lower(peek().text) == k;
    }
    static std::string describe(const Token& t) {
        switch (t.kind) {
        case Tok::End:
            return "end of expression";
        case Tok::String:
            return "'" + t.text + "'";
        case Tok::Number:
            return "a number";
        default:
            return t.text;
        }
    }

    void expr() {
        term();
        while (keyword("or")) {
            take();
            out_.sql += " OR ";
            term();
        }
    }
    void term() {
        factor();
        while (keyword("and")) {
            take();
            out_.sql += " AND ";
            factor();
        }
    }
    void factor() {
        if (keyword("not")) {
            take();
            out_.sql += "NOT ";
            factor();
            return;
        }
        if (peek().kind == Tok::LParen) {
            take();
            out_.sql += "(";
            expr();
            expect(Tok::RParen, "')'");
            out_.sql += ")";
            return;
        }
        if (peek().kind == Tok::Ident && pos_ + 1 < tokens_.size() &&
            tokens_[pos_ + 1].kind == Tok::LParen) {
            const std::string name = lower(peek().text);
            if (name == "smarts" || name == "substructure")
                substructure();
            else
                interaction();
            return;
        }
        comparison();
    }

    void expect(Tok kind, const char* what) {
        if (peek().kind != kind)
            throw FilterError(peek().column,
                              std::string("expected ") + what + ", got " + describe(peek()));
        take();
    }

    // KIND('RES'): an EXISTS over the interactions child table (indexed by residue, kind).
    void interaction() {
        const Token name = take();
        const std::string kind = lower(name.text);
        const auto& kinds = interactionKinds();
        const bool any = kind == "interacts";
        if (!any && std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            throw FilterError(name.column, "unknown function '" + name.text +
                                               "': expected hbond, saltbridge, pistack, halogen, "
                                               "hydrophobic, interacts, smarts or substructure");
        take(); // (
        const Token arg = peek();
        if (arg.kind != Tok::String)
            throw FilterError(arg.column, "expected a quoted residue such as 'ASP86' or "
                                          "'A:ASP86', got " +
                                              describe(arg));
        take();
        expect(Tok::RParen, "')'");
        std::string residue = arg.text, chain;
        if (auto colon = residue.find(':'); colon != std::string::npos) {
            chain = residue.substr(0, colon);
            residue = residue.substr(colon + 1);
        }
        for (char& c : residue)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        const bool valid =
            residue.size() >= 2 && std::isalpha(static_cast<unsigned char>(residue[0])) &&
            std::isdigit(static_cast<unsigned char>(residue.back())) && chain.size() <= 1;
        if (!valid)
            throw FilterError(arg.column + 1, "expected a residue such as 'ASP86' or 'A:ASP86', "
                                              "got '" +
                                                  arg.text + "'");
        out_.sql += "EXISTS (SELECT 1 FROM interactions AS i WHERE i.pose_id = poses.id AND "
                    "i.residue = ?";
        out_.params.emplace_back(residue);
        if (!any) {
            out_.sql += " AND i.kind = ?";
            out_.params.emplace_back(kind);
        }
        if (!chain.empty()) {
            out_.sql += " AND i.chain = ?";
            out_.params.emplace_back(chain);
        }
        out_.sql += ")";
    }

    // smarts('PATTERN') / substructure('SMILES'): the pattern is checked here (a bad one is a
    // FilterError at its position, not an SQL error later) and bound; the stored canonical SMILES
    // is matched by the connection's pw_substructure function.
    void substructure() {
        const Token name = take();
        const bool smarts = lower(name.text) == "smarts";
        take(); // (
        const Token arg = peek();
        if (arg.kind != Tok::String)
            throw FilterError(arg.column, std::string("expected a quoted ") +
                                              (smarts ? "SMARTS such as 'c1ccccc1C(=O)[OH]'"
                                                      : "SMILES such as 'c1ccccc1C(=O)O'") +
                                              ", got " + describe(arg));
        take();
        expect(Tok::RParen, "')'");
        try {
            SubstructureQuery(arg.text, smarts ? SubstructureQuery::Syntax::Smarts
                                               : SubstructureQuery::Syntax::Smiles);
        } catch (const PatternError& e) {
            throw FilterError(arg.column + 1, e.what());
        }
        out_.sql += std::string(kSubstructureSqlFunction) + "(?, ?, poses.smiles, poses.id)";
        out_.params.emplace_back(std::string(smarts ? "smarts" : "smiles"));
        out_.params.emplace_back(arg.text);
    }

    // Returns the operand's type: Text, Real (numbers and numeric columns).
    ColumnType operand() {
        const Token t = take();
        switch (t.kind) {
        case Tok::Number:
            out_.sql += "?";
            out_.params.emplace_back(t.number);
            return ColumnType::Real;
        case Tok::String:
            out_.sql += "?";
            out_.params.emplace_back(t.text);
            return ColumnType::Text;
        case Tok::Ident: {
            const ColumnInfo* c = store_.column(lower(t.text));
            if (!c)
                throw FilterError(t.column, "unknown column '" + t.text +
                                                "' (posewright-cli hits columns lists them)");
            // A numeric column is written "+poses.x": SQLite then scans instead of walking an
            // index on x, which it did even for ranges that keep most rows (mw < 500 on 1M
            // poses: 9x slower than the scan of the narrow table). Its values are stored as
            // numbers, so dropping the column's affinity changes no comparison.
            out_.sql +=
                (c->type == ColumnType::Text ? "poses." : "+poses.") + quoteIdentifier(c->name);
            return c->type == ColumnType::Text ? ColumnType::Text : ColumnType::Real;
        }
        default:
            throw FilterError(t.column,
                              "expected a column, a number or a quoted string, got " + describe(t));
        }
    }

    void comparison() {
        const int at = peek().column;
        const ColumnType left = operand();
        if (keyword("is")) {
            take();
            bool negated = false;
            if (keyword("not")) {
                take();
                negated = true;
            }
            if (!keyword("null"))
                throw FilterError(peek().column, "expected null after is, got " + describe(peek()));
            take();
            out_.sql += negated ? " IS NOT NULL" : " IS NULL";
            return;
        }
        if (keyword("like")) {
            take();
            out_.sql += " LIKE ";
            if (peek().kind != Tok::String)
                throw FilterError(peek().column, "expected a quoted pattern after like");
            operand();
            return;
        }
        if (peek().kind != Tok::Op)
            throw FilterError(peek().column, "expected a comparison (< <= > >= = !=), is null or "
                                             "like, got " +
                                                 describe(peek()));
        std::string op = take().text;
        if (op == "==")
            op = "=";
        if (op == "<>")
            op = "!=";
        out_.sql += " " + op + " ";
        const int rightAt = peek().column;
        const ColumnType right = operand();
        if (left != right)
            throw FilterError(left == ColumnType::Text ? at : rightAt,
                              "compares text with a number: quote text values, and compare "
                              "numeric columns with numbers");
    }

    std::vector<Token> tokens_;
    size_t pos_ = 0;
    const HitStore& store_;
    SqlFragment out_;
};

} // namespace

SqlFragment compileWhere(const std::string& expression, const HitStore& store) {
    return Parser(expression, store).parse();
}

std::string compileOrder(const std::string& order, const HitStore& store) {
    std::string sql;
    size_t start = 0;
    while (start <= order.size()) {
        size_t end = order.find(',', start);
        if (end == std::string::npos)
            end = order.size();
        std::string item = order.substr(start, end - start);
        const int column = static_cast<int>(start) + 1;
        size_t b = item.find_first_not_of(" \t");
        if (b == std::string::npos)
            throw FilterError(column, "expected a column name to order by");
        item = item.substr(b);
        item.erase(item.find_last_not_of(" \t") + 1);
        const int at = column + static_cast<int>(b);
        bool ascending = true;
        if (item[0] == '-' || item[0] == '+') {
            ascending = item[0] == '+';
            item = item.substr(1);
        }
        std::string name = item, direction;
        if (auto sp = item.find_first_of(" \t"); sp != std::string::npos) {
            name = item.substr(0, sp);
            direction = lower(item.substr(item.find_first_not_of(" \t", sp)));
            if (direction == "desc")
                ascending = false;
            else if (direction != "asc")
                throw FilterError(at + static_cast<int>(sp) + 1,
                                  "expected asc or desc after the column, got '" + direction + "'");
        }
        const ColumnInfo* c = store.column(lower(name));
        if (!c)
            throw FilterError(at, "unknown column '" + name +
                                      "' (posewright-cli hits columns lists them)");
        sql += (sql.empty() ? "" : ", ") + std::string("poses.") + quoteIdentifier(c->name) +
               (ascending ? " ASC" : " DESC") + " NULLS LAST";
        start = end + 1;
    }
    return sql;
}

} // namespace pw::hits
