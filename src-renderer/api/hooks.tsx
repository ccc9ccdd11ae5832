import { createContext, useContext, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useMutation, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ProcedureInput, ProcedureName, ProcedureOutput } from '../../src-main/api';
import type { ForgeClient } from './client';
import { isApiError } from './errors';

const ClientContext = createContext<ForgeClient | null>(null);

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Only a dropped link is worth retrying; bad input or a missing record will not fix itself.
        retry: (count, err) => count < 2 && (!isApiError(err) || err.code === 'unavailable'),
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
    },
  });
}

export function ForgeProvider(props: { client: ForgeClient; queryClient: QueryClient; children: ReactNode }) {
  return (
    <ClientContext.Provider value={props.client}>
      <QueryClientProvider client={props.queryClient}>{props.children}</QueryClientProvider>
    </ClientContext.Provider>
  );
}

export function useClient(): ForgeClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient needs <ForgeProvider>');
  return client;
}

/** The react-query key of a procedure call: name first, so `invalidateQueries({queryKey:[name]})` hits every input. */
export function procedureKey<N extends ProcedureName>(name: N, input?: ProcedureInput<N>) {
  return input === undefined ? ([name] as const) : ([name, input] as const);
}

type ExtraQueryOptions<N extends ProcedureName> = Omit<UseQueryOptions<ProcedureOutput<N>, Error, ProcedureOutput<N>>, 'queryKey' | 'queryFn'>;

export function useProcedure<N extends ProcedureName>(name: N, input: ProcedureInput<N>, options?: ExtraQueryOptions<N>) {
  const client = useClient();
  return useQuery<ProcedureOutput<N>, Error, ProcedureOutput<N>>({
    queryKey: procedureKey(name, input),
    queryFn: () => client.call(name, input),
    ...options,
  });
}

export function useProcedureMutation<N extends ProcedureName>(name: N) {
  const client = useClient();
  return useMutation<ProcedureOutput<N>, Error, ProcedureInput<N>>({
    // Keyed by procedure so the toasts (app/Toasts.tsx) can confirm decisions made on any screen.
    mutationKey: [name],
    mutationFn: (input) => client.call(name, input),
  });
}
