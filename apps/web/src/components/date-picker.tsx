import { type FormEvent, type ReactElement, useState } from 'react';
import { initialDate, localToday } from '../lib/dates.ts';
import type { DateQuestion } from '../tools/browser-tools.ts';

/** The answer UI of `pick_date`: the tool call waits until the user chooses or cancels. */
export function DatePicker(props: {
  readonly question: DateQuestion;
  readonly onChoose: (date: string) => void;
  readonly onCancel: () => void;
}): ReactElement {
  const { question, onChoose, onCancel } = props;
  const [value, setValue] = useState(() => initialDate(question, localToday()));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value) onChoose(value);
  };
  return (
    <form className="date-picker" data-testid="date-picker" onSubmit={submit}>
      <label className="date-question">
        <span>{question.question}</span>
        <input
          type="date"
          data-testid="date-input"
          value={value}
          min={question.min}
          max={question.max}
          required
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      <div className="button-row">
        <button type="submit" className="button primary" data-testid="date-submit" disabled={!value}>
          Choose date
        </button>
        <button type="button" className="button ghost" data-testid="date-cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
