import { useId } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoginSchema, type Login } from '#common/schemas/auth.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormAlert } from '#client/components/ui/form-alert.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useLogin } from '../api/login';

type LoginFormProps = { onSuccess: () => void; onSwitchToRegister: () => void };

export function LoginForm({ onSuccess, onSwitchToRegister }: LoginFormProps) {
  const login = useLogin();
  const alertId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Login>({ resolver: zodResolver(LoginSchema), defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit((values) => login.mutate(values, { onSuccess }));

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5"
      aria-label="Login"
      aria-describedby={login.error ? alertId : undefined}
    >
      <FormAlert id={alertId} title="Login failed" message={login.error ? errorMessage(login.error) : null} />
      <FormField label="Username" error={errors.username?.message}>
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
        {login.isPending ? (
          <>
            <LoaderCircle aria-hidden className="animate-spin" />
            Logging in...
          </>
        ) : (
          'Sign In'
        )}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Don&apos;t have an account?{' '}
        <Button variant="link" onClick={onSwitchToRegister}>
          Register here
        </Button>
      </p>
    </form>
  );
}
