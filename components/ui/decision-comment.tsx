import { Field, TextArea } from './form'

/**
 * The optional comment a person gives with a decision (an approval, a held discovery change): why,
 * for the record. `keptWith` says where the record keeps it.
 */
export function DecisionComment({ value, onChange, keptWith }: { value: string; onChange: (comment: string) => void; keptWith: string }) {
  return (
    <Field
      label={
        <span>
          Comment <span className="font-normal">(optional, kept {keptWith})</span>
        </span>
      }
    >
      <TextArea value={value} onChange={(e) => onChange(e.target.value)} rows={2} maxLength={2000} placeholder="Why, for the record…" />
    </Field>
  )
}
