import Foundation
import Testing

/// A snippet may leave out the app's own types (a reader sees what they are), but not a helper
/// function the reader never sees: every function a snippet calls is declared in the article's
/// own snippets, in the library or an example app (`Sources`, `Examples/Sources`, which a reader
/// can open), or outside this repository (the standard library, Foundation, a dependency). A
/// helper declared only in test code (`makeStore`, `testServices`, a `UUID(0)` initializer) must
/// be shown in the article, or replaced by public API. Static members of the app's own types
/// (`User.query(id:)`) count as the app's types do.
@Suite("Article snippets call no helper the reader cannot see")
struct SnippetHelperTests {
    /// Swift files below `folders`, relative to the repository's root.
    static func swiftFiles(in folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            let url = SnippetTests.root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
            return files.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }
    }

    /// The functions, static members and types a text declares.
    static func declaredNames(in text: String) -> Set<String> {
        let declaration = #/(?m)^\s*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:private|fileprivate|internal|public|package|static|final|nonisolated|mutating|override)\s+)*(?:func|struct|enum|class|actor|let|var|typealias|protocol)\s+([A-Za-z_]\w*)/#
        return Set(text.matches(of: declaration).map { String($0.1) })
    }

    /// The types that test code extends with an unlabeled initializer (`extension UUID {
    /// init(_ value: Int) }`), which a snippet calls as `UUID(0)`.
    static func typesWithTestInitializers(in text: String) -> Set<String> {
        let extensionWithInit = #/extension\s+([A-Z]\w*)\b[^{]*\{[^}]*?\binit\(_ /#
        return Set(text.matches(of: extensionWithInit).map { String($0.1) })
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOf: SnippetTests.root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// What test code declares, by name, with a file that declares it.
    static let testDeclarations: (names: [String: String], initializers: [String: String]) = {
        var names: [String: String] = [:]
        var initializers: [String: String] = [:]
        for file in swiftFiles(in: ["Tests", "Examples/Tests"])
        where !file.hasPrefix("Tests/CompileErrors/") && !file.hasSuffix("/SnippetHelperTests.swift") {
            let text = read(file)
            for name in declaredNames(in: text) { names[name] = names[name] ?? file }
            for type in typesWithTestInitializers(in: text) { initializers[type] = initializers[type] ?? file }
        }
        return (names, initializers)
    }()

    /// What the library and the example apps declare: a reader can open these.
    static let visibleNames: Set<String> = {
        swiftFiles(in: ["Sources", "Examples/Sources"]).reduce(into: Set<String>()) { names, file in
            names.formUnion(declaredNames(in: read(file)))
        }
    }()

    /// The helpers the snippets of `article` call that only test code declares, each with the
    /// file that declares it.
    static func hiddenHelpers(in article: String) -> [(name: String, file: String)] {
        let snippets = SnippetTests.swiftSnippets(in: read(article))
        let shown = declaredNames(in: snippets.joined(separator: "\n"))
        var hidden: [(String, String)] = []
        for snippet in snippets {
            // A function call (`makeStore(`), not a member (`.send(`), a macro (`#expect(`) or a type.
            for match in snippet.matches(of: #/(?:^|[^\w.#@])([a-z_]\w*)\s*\(/#) {
                let name = String(match.1)
                guard !shown.contains(name), !visibleNames.contains(name),
                    let file = testDeclarations.names[name] else { continue }
                hidden.append((name, file))
            }
            // An initializer test code adds to a type of another module (`UUID(0)`).
            for match in snippet.matches(of: #/(?:^|[^\w.])([A-Z]\w*)\(\d/#) {
                let type = String(match.1)
                guard !shown.contains(type), let file = testDeclarations.initializers[type] else { continue }
                hidden.append(("\(type)(_:)", file))
            }
        }
        return hidden
    }

    @Test("The check finds a helper declared only in test code")
    func checkFindsAHiddenHelper() {
        #expect(Self.testDeclarations.names["testServices"] != nil)
        #expect(Self.declaredNames(in: "static func testServices(clock: C) -> S {").contains("testServices"))
        #expect(Self.typesWithTestInitializers(in: "extension UUID {\n    init(_ value: Int) {").contains("UUID"))
    }

    @Test(arguments: SnippetTests.articles)
    func snippetsCallOnlyVisibleHelpers(article: String) {
        for (name, file) in Self.hiddenHelpers(in: article) {
            Issue.record("A snippet of \(article) calls \(name), which only \(file) declares: show it in the article or use public API")
        }
    }
}
