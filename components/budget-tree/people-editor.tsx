"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { changePerson } from "@/lib/api-client/budgets";
import type { Person } from "./tree-model";

/** A node's leads or members, with add and remove controls for those allowed to change them. */
export function PeopleEditor({
  nodeId,
  nodeName,
  role,
  people,
  canManage,
}: {
  nodeId: string;
  nodeName: string;
  role: "leads" | "members";
  people: Person[];
  canManage: boolean;
}) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState<{ text: string; isError: boolean } | null>(null);
  const [isPending, startTransition] = useTransition();
  const noun = role === "leads" ? "lead" : "member";
  const inputId = `${role}-${nodeId}-email`;

  function run(address: string, isAdding: boolean, person?: Person) {
    startTransition(async () => {
      const result = await changePerson(nodeId, role, address, isAdding);
      if (!result.ok) {
        setMessage({
          text: result.error.issues[0]?.message ?? result.error.message,
          isError: true,
        });
        return;
      }
      const added = result.value.people.find((row) => row.email === address.toLowerCase());
      const who = person?.name ?? added?.name ?? address;
      setMessage({
        text: isAdding ? `Added ${who} as ${noun} of ${nodeName}.` : `Removed ${who}.`,
        isError: false,
      });
      if (isAdding) setEmail("");
      router.refresh();
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (email.trim()) run(email.trim(), true);
  }

  return (
    <div className="people">
      {people.length === 0 ? (
        <p className="muted">
          {role === "leads" ? "No leads of its own: the leads above it decide." : "No members yet."}
        </p>
      ) : (
        <ul className="people-list">
          {people.map((person) => (
            <li key={person.id}>
              <span>
                {person.name} <span className="muted small">{person.email}</span>
              </span>
              {canManage && person.email !== undefined ? (
                <button
                  type="button"
                  className="button button-small"
                  disabled={isPending}
                  aria-label={`Remove ${person.name} as ${noun}`}
                  onClick={() => run(person.email!, false, person)}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canManage ? (
        <form className="inline-form" onSubmit={submit}>
          <label htmlFor={inputId}>Add {noun} by email</label>
          <div className="inline-form-row">
            <input
              id={inputId}
              type="email"
              required
              autoComplete="off"
              placeholder="name@lab.example"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <button type="submit" className="button" disabled={isPending}>
              Add {noun}
            </button>
          </div>
        </form>
      ) : null}
      {message ? (
        <p
          role={message.isError ? "alert" : "status"}
          className={message.isError ? "field-error" : "ok-text"}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
