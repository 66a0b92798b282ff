import Foundation

/// The elements a page may hold: those that show content. None runs code, loads from
/// elsewhere or sends anything (no `script`, `style`, `iframe`, `object`, `form`).
public struct HTMLTag: Sendable, Equatable {
    package let name: String
    package let isVoid: Bool

    private init(_ name: String, isVoid: Bool = false) {
        self.name = name
        self.isVoid = isVoid
    }

    public static let a = HTMLTag("a")
    public static let article = HTMLTag("article")
    public static let aside = HTMLTag("aside")
    public static let br = HTMLTag("br", isVoid: true)
    public static let code = HTMLTag("code")
    public static let dd = HTMLTag("dd")
    public static let del = HTMLTag("del")
    public static let details = HTMLTag("details")
    public static let div = HTMLTag("div")
    public static let dl = HTMLTag("dl")
    public static let dt = HTMLTag("dt")
    public static let em = HTMLTag("em")
    public static let figcaption = HTMLTag("figcaption")
    public static let figure = HTMLTag("figure")
    public static let footer = HTMLTag("footer")
    public static let h2 = HTMLTag("h2")
    public static let h3 = HTMLTag("h3")
    public static let h4 = HTMLTag("h4")
    public static let header = HTMLTag("header")
    static let h1 = HTMLTag("h1")
    static let title = HTMLTag("title")
    public static let hr = HTMLTag("hr", isVoid: true)
    public static let img = HTMLTag("img", isVoid: true)
    public static let ins = HTMLTag("ins")
    public static let li = HTMLTag("li")
    public static let mark = HTMLTag("mark")
    public static let nav = HTMLTag("nav")
    public static let ol = HTMLTag("ol")
    public static let p = HTMLTag("p")
    public static let pre = HTMLTag("pre")
    public static let section = HTMLTag("section")
    public static let small = HTMLTag("small")
    public static let span = HTMLTag("span")
    public static let strong = HTMLTag("strong")
    public static let summary = HTMLTag("summary")
    public static let table = HTMLTag("table")
    public static let tbody = HTMLTag("tbody")
    public static let td = HTMLTag("td")
    public static let th = HTMLTag("th")
    public static let thead = HTMLTag("thead")
    public static let time = HTMLTag("time")
    public static let tr = HTMLTag("tr")
    public static let ul = HTMLTag("ul")
}
