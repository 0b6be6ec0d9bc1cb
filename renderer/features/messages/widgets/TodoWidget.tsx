// A to-do list as the web app shows it: the title (the author may rename the list, "Task list"
// while it has none), one checkbox per task with its description, and a bar to add a task.
import {
  todoNewTaskEvent,
  todoStrikeEvent,
  todoTitleEvent,
  type TodoState,
} from '../../../../shared/widgets/todo';
import { EditableHeading } from './EditableHeading';
import { AddItemBar } from './AddItemBar';
import { useWidgetSender } from './send';

export function TodoWidget({
  accountId,
  messageId,
  todo,
  selfUserId,
}: {
  accountId: string;
  messageId: number;
  todo: TodoState;
  selfUserId: number;
}) {
  const { send, nextIdx, error } = useWidgetSender(accountId, messageId);
  return (
    <div className="widget todo-widget" data-testid="todo-widget">
      <EditableHeading
        text={todo.title === '' ? 'Task list' : todo.title}
        placeholder="Add list title"
        editLabel="Edit task list title"
        canEdit={selfUserId === todo.authorId}
        startEditing={false}
        onSave={(text) => send(todoTitleEvent(todo, selfUserId, text))}
      />
      <ul className="todo-tasks">
        {todo.tasks.map((t) => (
          <li key={t.key} className={`todo-task${t.completed ? ' completed' : ''}`}>
            <label>
              <input
                type="checkbox"
                checked={t.completed}
                onChange={() => send(todoStrikeEvent(t.key))}
              />
              <span className="todo-task-text">
                <strong>{t.task}</strong>
                {t.desc ? `: ${t.desc}` : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <AddItemBar
        placeholder="New task"
        descPlaceholder="Description"
        buttonLabel="Add task"
        isTaken={(text) => todo.tasks.some((t) => t.task === text)}
        takenMessage="Cannot add duplicate task."
        onAdd={(task, desc) => {
          const event = todoNewTaskEvent(todo, selfUserId, task, desc);
          if (event?.type === 'new_task') send({ ...event, key: nextIdx(event.key) });
        }}
        error={error}
      />
    </div>
  );
}
