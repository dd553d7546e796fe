import Foundation

/// A value computed once per test process and shared by every test that asks for it by the same
/// key, e.g. a clip's frame-by-frame analysis that two suites judge by different rules. Tests
/// run concurrently: a second caller waits for the first one's computation instead of repeating
/// it. A failure is kept and rethrown to every caller (the input is the same, so is the error).
public enum SharedResult {
    private final class Cell: @unchecked Sendable {
        let lock = NSLock()
        var value: Result<Any, Error>?
    }
    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var cells: [String: Cell] = [:]
        func cell(_ key: String) -> Cell {
            lock.lock(); defer { lock.unlock() }
            if let c = cells[key] { return c }
            let c = Cell()
            cells[key] = c
            return c
        }
    }
    private static let table = Table()

    /// The value stored under `key`, computing it with `compute` on the first call.
    /// - Throws: what `compute` threw (on this call or the first one), or a type mismatch
    ///   when the same key was used for another type.
    public static func once<T>(_ key: String, _ compute: () throws -> T) throws -> T {
        let cell = table.cell(key)
        cell.lock.lock(); defer { cell.lock.unlock() }
        if cell.value == nil { cell.value = Result { try compute() as Any } }
        guard let value = try cell.value!.get() as? T else {
            throw TypeMismatch(key: key, wanted: "\(T.self)")
        }
        return value
    }

    private final class Tasks: @unchecked Sendable {
        let lock = NSLock()
        var tasks: [String: Task<any Sendable, Error>] = [:]
    }
    private static let tasks = Tasks()

    /// `once` for async work (a child process run): the first caller starts `compute` as a task;
    /// every caller, the first one included, awaits that task's value. Nobody holds a thread while
    /// it runs (a lock held across the run would block the test pool's thread: two of them are
    /// the whole pool on a 2-core machine).
    /// - Throws: what `compute` threw, or a type mismatch when the key was used for another type.
    public static func once<T: Sendable>(_ key: String, _ compute: @escaping @Sendable () async throws -> T) async throws -> T {
        let task: Task<any Sendable, Error> = {
            tasks.lock.lock(); defer { tasks.lock.unlock() }
            if let t = tasks.tasks[key] { return t }
            let t = Task<any Sendable, Error> { try await compute() }
            tasks.tasks[key] = t
            return t
        }()
        guard let value = try await task.value as? T else { throw TypeMismatch(key: key, wanted: "\(T.self)") }
        return value
    }

    struct TypeMismatch: Error, CustomStringConvertible {
        var key: String, wanted: String
        var description: String { "SharedResult \(key) holds another type than \(wanted)" }
    }
}
