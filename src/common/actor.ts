/** Who made a change, as the contract's Actor: stored with each write and returned as-is. */
export interface ActorSource {
  type: 'oauth' | 'import' | 'email' | 'agent';
  client_id?: string;
  import_id?: string;
  agent_id?: string;
  email_addr?: string;
  email_verified?: boolean;
  on_behalf_of?: string;
}

export interface Actor {
  user_id?: string;
  type: 'user' | 'robot' | 'system';
  source?: ActorSource;
}

/** What a token acts as, before it is bound to a user: stored on the token. */
export type TokenActor = Omit<Actor, 'user_id'>;

export const SYSTEM_ACTOR: Actor = { type: 'system' };
