// Stand-ins for the SwiftUI declarations the SyncUps example's views add to the others: sections,
// a stepper, swipe-to-delete and a toolbar. Empty where SwiftUI exists; see SwiftUIStandIns.swift.
#if !canImport(SwiftUI)
import Foundation

/// A titled group of rows in a list: SwiftUI's `Section`.
public struct Section<Content: View>: View {
    let title: String
    let content: Content

    /// A section with `title` over the rows `content` builds.
    ///
    /// - Parameters:
    ///   - title: The header.
    ///   - content: The rows.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.title = String(title)
        self.content = content()
    }

    /// Primitive.
    public var body: Never { fatalError("Section has no body") }
}

/// A control that steps a value up and down within bounds: SwiftUI's `Stepper`.
public struct Stepper: View {
    let title: String

    /// A stepper of `value` within `bounds`.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - value: The value; written by the control.
    ///   - bounds: The values it may take.
    public init<S: StringProtocol, V: Strideable>(_ title: S, value: Binding<V>, in bounds: ClosedRange<V>) {
        self.title = String(title)
    }

    /// Primitive.
    public var body: Never { fatalError("Stepper has no body") }
}

/// The settings of an `onDelete(perform:)`.
public struct OnDeleteModifier {
    /// Deletes the rows at the offsets the user swiped.
    public let action: ((IndexSet) -> Void)?
}

extension ForEach {
    /// Lets the user delete rows, which `action` removes.
    ///
    /// - Parameter action: Deletes the rows at the offsets the user swiped.
    /// - Returns: The rows, deletable.
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> ModifiedContent<Self, OnDeleteModifier> {
        ModifiedContent(content: self, modifier: OnDeleteModifier(action: action))
    }
}

/// Where a toolbar item goes: SwiftUI's `ToolbarItemPlacement`.
public struct ToolbarItemPlacement: Sendable {
    let name: String

    /// Where the system puts it.
    public static let automatic = ToolbarItemPlacement(name: "automatic")
    /// The place of a Cancel button.
    public static let cancellationAction = ToolbarItemPlacement(name: "cancellationAction")
    /// The place of a Done or Add button.
    public static let confirmationAction = ToolbarItemPlacement(name: "confirmationAction")
}

/// What a toolbar holds: SwiftUI's `ToolbarContent`.
@MainActor
public protocol ToolbarContent {}

/// An item of a toolbar: SwiftUI's `ToolbarItem`.
public struct ToolbarItem<ID, Content: View>: ToolbarContent {
    let placement: ToolbarItemPlacement
    let content: Content

    /// Primitive.
    public var body: Never { fatalError("ToolbarItem has no body") }
}

extension ToolbarItem where ID == Void {
    /// An item at `placement`, showing `content`.
    ///
    /// - Parameters:
    ///   - placement: Where it goes.
    ///   - content: The item's view, usually a button.
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }
}

/// Several toolbar items.
public struct ToolbarTuple<T>: ToolbarContent {
    let value: T
}

/// The result builder of a toolbar: SwiftUI's `ToolbarContentBuilder`.
@MainActor
@resultBuilder
public enum ToolbarContentBuilder {
    /// A block of one item.
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }

    /// A block of several items.
    public static func buildBlock<each Content: ToolbarContent>(_ content: repeat each Content) -> ToolbarTuple<(repeat each Content)> {
        ToolbarTuple(value: (repeat each content))
    }
}

/// The settings of a `toolbar(content:)`.
public struct ToolbarModifier<Content: ToolbarContent> {
    /// The items.
    public let content: Content
}

extension View {
    /// Adds items to the toolbar of the screen.
    ///
    /// - Parameter content: The items.
    /// - Returns: The view with its toolbar.
    public func toolbar<Content: ToolbarContent>(
        @ToolbarContentBuilder content: () -> Content
    ) -> ModifiedContent<Self, ToolbarModifier<Content>> {
        ModifiedContent(content: self, modifier: ToolbarModifier(content: content()))
    }
}

#endif
