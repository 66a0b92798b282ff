import DocumentKit
import Foundation

/// A project's page in an HTML export: its name, summary and facts, the board's columns
/// with their cards, every task (status, priority, dates, tags, notes, attachments, what it
/// waits for and what waits for it), and the drafts. Tasks and drafts are paged lists, so a
/// project of 25,000 tasks is fifty pages of 500.
extension ProjectSchemaV4.Project: HTMLRenderable {
    /// The most cards a board column shows; the task list holds every task.
    static let cardsPerColumn = 50

    public func renderHTML(into page: HTMLDocumentPage) throws {
        page.title = name
        let taskList = page.list("tasks", itemIDs: tasks.map { Self.anchor($0.id) })
        var titles: [UUID: String] = [:]
        var waiting: [UUID: [UUID]] = [:]
        titles.reserveCapacity(tasks.count)
        for task in tasks {
            titles[task.id] = task.title
            for blocker in task.blockedBy { waiting[blocker, default: []].append(task.id) }
        }
        let columnNames = Dictionary(columns.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        page.section { html in overview(into: &html) }
        if !columns.isEmpty {
            page.section { html in board(taskList, titles: titles, into: &html) }
        }
        page.write(taskList, heading: "Tasks") { html, index in
            let task = tasks[index]
            task.render(
                into: &html, columnName: task.column.flatMap { columnNames[$0] }, list: taskList, titles: titles,
                waiting: waiting[task.id] ?? [])
        }
        if !drafts.isEmpty {
            let draftList = page.list("drafts", itemIDs: drafts.map { "draft-\($0.id.text)" })
            page.write(draftList, heading: "Drafts") { html, index in
                let draft = drafts[index]
                html.element(.article, .class("draft")) { html in
                    html.element(.p, .class("muted")) { html in
                        html.text("Written ")
                        html.time(draft.createdAt)
                    }
                    html.element(.p, .class("text"), text: draft.content)
                }
            }
        }
    }

    static func anchor(_ id: UUID) -> String { "task-\(id.text)" }

    private func overview(into html: inout HTMLMarkup) {
        if !summary.isEmpty { html.element(.p, .class("lead"), text: summary) }
        html.element(.dl, .class("facts")) { html in
            html.element(.dt, text: "Created")
            html.element(.dd) { $0.time(createdAt, dateOnly: true) }
            html.element(.dt, text: "State")
            html.element(.dd, text: isArchived ? "Archived: finished, kept for reference" : "Active")
            html.element(.dt, text: "Tasks")
            var counts: [ProjectTask.Status: Int] = [:]
            for task in tasks { counts[task.status, default: 0] += 1 }
            let parts = ProjectTask.Status.allCases.compactMap { status in
                counts[status].map { "\($0) \(status.displayName.lowercased())" }
            }
            html.element(
                .dd, text: tasks.isEmpty ? "none" : "\(tasks.count): \(parts.joined(separator: ", "))")
            if !columns.isEmpty {
                html.element(.dt, text: "Board")
                html.element(.dd, text: columns.map(\.name).joined(separator: " → "))
            }
            if !drafts.isEmpty {
                html.element(.dt, text: "Drafts")
                html.element(.dd, text: "\(drafts.count)")
            }
        }
        if let thumbnail { html.blob(thumbnail) }
    }

    private func board(_ taskList: HTMLPagedList, titles: [UUID: String], into html: inout HTMLMarkup) {
        let statuses = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        html.element(.h2, text: "Board")
        html.element(.div, .class("board")) { html in
            for column in columns {
                html.element(.section, .class("column")) { html in
                    html.element(.h3) { html in
                        html.element(.span, text: column.name)
                        html.element(
                            .span, .class("badge"), .title("tasks on the column"), text: "\(column.tasks.count)")
                    }
                    html.element(.ol) { html in
                        for id in column.tasks.prefix(Self.cardsPerColumn) {
                            html.element(.li, .class("card")) { html in
                                html.link(to: taskList.link(to: Self.anchor(id)), text: titles[id] ?? "(missing task)")
                                if let task = statuses[id] {
                                    html.element(.br)
                                    task.badges(into: &html)
                                }
                            }
                        }
                        if column.tasks.count > Self.cardsPerColumn {
                            html.element(
                                .li, .class("muted"),
                                text: "… and \(column.tasks.count - Self.cardsPerColumn) more in the task list")
                        }
                    }
                }
            }
        }
    }
}

extension ProjectSchemaV4.ProjectTask {
    /// The task in the task list.
    fileprivate func render(
        into html: inout HTMLMarkup, columnName: String?, list: HTMLPagedList, titles: [UUID: String],
        waiting: [UUID]
    ) {
        html.element(.article, .class("task")) { html in
            html.element(.h3, text: title)
            html.element(.div, .class("meta")) { html in
                badges(into: &html)
                if let columnName { html.element(.span, .class("badge column-name"), text: "on \(columnName)") }
                for tag in tags { html.element(.span, .class("badge tag"), text: "#\(tag)") }
            }
            if !notes.isEmpty { html.element(.p, .class("notes"), text: notes) }
            if !blockedBy.isEmpty || !waiting.isEmpty {
                html.element(.dl, .class("relations")) { html in
                    if !blockedBy.isEmpty {
                        html.element(.dt, text: "Waits for")
                        for id in blockedBy { relation(id, list: list, titles: titles, into: &html) }
                    }
                    if !waiting.isEmpty {
                        html.element(.dt, text: "Blocks")
                        for id in waiting { relation(id, list: list, titles: titles, into: &html) }
                    }
                }
            }
            for attachment in attachments { html.blob(attachment) }
        }
    }

    private func relation(_ id: UUID, list: HTMLPagedList, titles: [UUID: String], into html: inout HTMLMarkup) {
        html.element(.dd) { html in
            html.link(to: list.link(to: ProjectSchemaV4.Project.anchor(id)), text: titles[id] ?? id.text)
        }
    }

    /// Status, priority and due date, as badges.
    fileprivate func badges(into html: inout HTMLMarkup) {
        html.element(.span, .class("badge status-\(status.rawValue)"), text: status.displayName)
        html.text(" ")
        html.element(.span, .class("badge priority-\(priority.rawValue)"), text: "\(priority.rawValue) priority")
        if let dueDate {
            html.text(" ")
            html.element(.span, .class("badge due")) { html in
                html.text("due ")
                html.time(dueDate, dateOnly: true)
            }
        }
    }
}

extension ProjectSchemaV3.ProjectTask.Status {
    /// How a person reads the status: "To do", "In progress", "Done".
    var displayName: String {
        switch self {
        case .todo: "To do"
        case .inProgress: "In progress"
        case .done: "Done"
        }
    }
}
