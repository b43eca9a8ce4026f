/// The key of an operation in an ``OperationClient``: a list of hashable elements, read from the
/// most general to the most specific.
///
/// A query's path defaults to the query value itself, so two equal queries share a store. Give a
/// query a hierarchical path when you want to reach a family of stores at once:
///
/// ```swift
/// struct UserQuery: QueryRequest {
///   let id: Int
///   var path: OperationPath { ["users", id] }
///   // ...
/// }
///
/// await client.invalidateStores(matching: ["users"])   // every user query
/// ```
///
/// Elements compare by value and by type: `1` and `"1"` are different elements.
public struct OperationPath: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One element of a path: any hashable value, compared by value and by type.
    ///
    /// ```swift
    /// let path: OperationPath = ["users", 42]
    /// #expect(path.elements == [OperationPath.Element("users"), OperationPath.Element(42)])
    /// #expect(OperationPath.Element(1) != OperationPath.Element("1"))
    /// ```
    public struct Element: Hashable, Sendable, CustomStringConvertible {
        /// The element's value.
        public let base: any Hashable & Sendable

        /// Wraps `base` as a path element.
        public init(_ base: any Hashable & Sendable) {
            if let element = base as? Element {
                self = element
            } else {
                self.base = base
            }
        }

        public static func == (lhs: Element, rhs: Element) -> Bool {
            AnyHashable(lhs.base) == AnyHashable(rhs.base)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(AnyHashable(base))
        }

        public var description: String {
            if let string = base as? String {
                return string.debugDescription
            }
            return String(describing: base)
        }
    }

    /// The path's elements, most general first.
    public var elements: [Element]

    /// The empty path: a prefix of every path.
    public init() {
        elements = []
    }

    /// A path of `elements`.
    public init(_ elements: [any Hashable & Sendable]) {
        self.elements = elements.map(Element.init)
    }

    /// A path of one element.
    public init(_ element: some Hashable & Sendable) {
        elements = [Element(element)]
    }

    public init(arrayLiteral elements: (any Hashable & Sendable)...) {
        self.init(elements)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool {
        elements.isEmpty
    }

    /// The number of elements.
    public var count: Int {
        elements.count
    }

    /// Whether this path is `other` or one of its ancestors. The empty path is a prefix of every
    /// path.
    public func isPrefix(of other: OperationPath) -> Bool {
        other.elements.count >= elements.count
            && zip(elements, other.elements).allSatisfy { $0 == $1 }
    }

    /// This path with `element` added at the end.
    public func appending(_ element: some Hashable & Sendable) -> OperationPath {
        var path = self
        path.elements.append(Element(element))
        return path
    }

    /// This path with the elements of `other` added at the end.
    public func appending(_ other: OperationPath) -> OperationPath {
        var path = self
        path.elements += other.elements
        return path
    }

    public var description: String {
        "[" + elements.map(\.description).joined(separator: ", ") + "]"
    }
}
