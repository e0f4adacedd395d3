package io.streamsplit.pipeline.step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ReducingState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.jspecify.annotations.Nullable;

/**
 * What one attempt of a keyed step did to the key's state, so a failed attempt can be undone: a {@code
 * ValueState}'s writes are held until the attempt returns (and its value is read as a copy, so changing the object
 * in place changes nothing before {@code update}, on the heap backend as on RocksDB); a list, map or reducing
 * state is saved before the attempt's first change to it (a map: per key) and put back when the attempt fails.
 * One per step subtask, on its task's thread.
 */
final class StateJournal {

    private interface Entry {
        void commit() throws Exception;

        void rollback() throws Exception;
    }

    private final List<Entry> touched = new ArrayList<>();
    private int attempt;

    /** Starts an attempt. */
    void begin() {
        attempt++;
        touched.clear();
    }

    /** The attempt returned: held writes go to the state. */
    void commit() throws Exception {
        for (Entry entry : touched) {
            entry.commit();
        }
        touched.clear();
    }

    /** The attempt failed: the state is as it was before it. */
    void rollback() throws Exception {
        for (int i = touched.size() - 1; i >= 0; i--) {
            touched.get(i).rollback();
        }
        touched.clear();
    }

    <T> ValueState<T> value(ValueState<T> state, TypeSerializer<T> serializer) {
        return new JournaledValue<>(state, serializer);
    }

    <T> ListState<T> list(ListState<T> state) {
        return new JournaledList<>(state);
    }

    <K, V> MapState<K, V> map(MapState<K, V> state) {
        return new JournaledMap<>(state);
    }

    <T> ReducingState<T> reducing(ReducingState<T> state) {
        return new JournaledReducing<>(state);
    }

    private final class JournaledValue<T> implements ValueState<T>, Entry {
        private final ValueState<T> state;
        private final TypeSerializer<T> serializer;
        private int seenIn = -1;
        private @Nullable T pending;
        private boolean written;

        JournaledValue(ValueState<T> state, TypeSerializer<T> serializer) {
            this.state = state;
            this.serializer = serializer;
        }

        private void join() throws java.io.IOException {
            if (seenIn != attempt) {
                seenIn = attempt;
                T stored = state.value();
                pending = stored == null || serializer.isImmutableType() ? stored : serializer.copy(stored);
                written = false;
                touched.add(this);
            }
        }

        @Override
        public @Nullable T value() throws java.io.IOException {
            join();
            return pending;
        }

        @Override
        public void update(@Nullable T value) throws java.io.IOException {
            join();
            pending = value;
            written = true;
        }

        @Override
        public void clear() {
            try {
                join();
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            pending = null;
            written = true;
        }

        @Override
        public void commit() throws Exception {
            if (written) {
                if (pending == null) {
                    state.clear();
                } else {
                    state.update(pending);
                }
            }
            pending = null;
            seenIn = -1;
        }

        @Override
        public void rollback() {
            pending = null;
            seenIn = -1;
        }
    }

    private final class JournaledList<T> implements ListState<T>, Entry {
        private final ListState<T> state;
        private int savedIn = -1;
        private @Nullable List<T> before;

        JournaledList(ListState<T> state) {
            this.state = state;
        }

        private void save() throws Exception {
            if (savedIn != attempt) {
                savedIn = attempt;
                List<T> copy = new ArrayList<>();
                Iterable<T> stored = state.get();
                if (stored != null) {
                    stored.forEach(copy::add);
                }
                before = copy;
                touched.add(this);
            }
        }

        @Override
        public Iterable<T> get() throws Exception {
            return state.get();
        }

        @Override
        public void add(T value) throws Exception {
            save();
            state.add(value);
        }

        @Override
        public void addAll(List<T> values) throws Exception {
            save();
            state.addAll(values);
        }

        @Override
        public void update(List<T> values) throws Exception {
            save();
            state.update(values);
        }

        @Override
        public void clear() {
            try {
                save();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            state.clear();
        }

        @Override
        public void commit() {
            before = null;
            savedIn = -1;
        }

        @Override
        public void rollback() throws Exception {
            List<T> saved = before;
            if (saved == null || saved.isEmpty()) {
                state.clear();
            } else {
                state.update(saved);
            }
            commit();
        }
    }

    private final class JournaledReducing<T> implements ReducingState<T>, Entry {
        private final ReducingState<T> state;
        private int savedIn = -1;
        private @Nullable T before;

        JournaledReducing(ReducingState<T> state) {
            this.state = state;
        }

        private void save() throws Exception {
            if (savedIn != attempt) {
                savedIn = attempt;
                before = state.get();
                touched.add(this);
            }
        }

        @Override
        public T get() throws Exception {
            return state.get();
        }

        @Override
        public void add(T value) throws Exception {
            save();
            state.add(value);
        }

        @Override
        public void clear() {
            try {
                save();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            state.clear();
        }

        @Override
        public void commit() {
            before = null;
            savedIn = -1;
        }

        @Override
        public void rollback() throws Exception {
            T saved = before;
            state.clear();
            if (saved != null) {
                state.add(saved); // reducing one value into an empty state gives that value
            }
            commit();
        }
    }

    private final class JournaledMap<K, V> implements MapState<K, V>, Entry {
        private static final Object ABSENT = new Object();

        private final MapState<K, V> state;
        private int savedIn = -1;
        private final Map<K, Object> before = new HashMap<>();

        JournaledMap(MapState<K, V> state) {
            this.state = state;
        }

        private void save(K key) throws Exception {
            if (savedIn != attempt) {
                savedIn = attempt;
                before.clear();
                touched.add(this);
            }
            if (!before.containsKey(key)) {
                before.put(key, state.contains(key) ? state.get(key) : ABSENT);
            }
        }

        @Override
        public V get(K key) throws Exception {
            return state.get(key);
        }

        @Override
        public void put(K key, V value) throws Exception {
            save(key);
            state.put(key, value);
        }

        @Override
        public void putAll(Map<K, V> map) throws Exception {
            for (K key : map.keySet()) {
                save(key);
            }
            state.putAll(map);
        }

        @Override
        public void remove(K key) throws Exception {
            save(key);
            state.remove(key);
        }

        @Override
        public boolean contains(K key) throws Exception {
            return state.contains(key);
        }

        @Override
        public Iterable<Map.Entry<K, V>> entries() throws Exception {
            Iterable<Map.Entry<K, V>> entries = state.entries();
            return () -> new SavingIterator<>(entries.iterator(), e -> e.getKey(), this);
        }

        @Override
        public Iterable<K> keys() throws Exception {
            Iterable<K> keys = state.keys();
            return () -> new SavingIterator<>(keys.iterator(), k -> k, this);
        }

        @Override
        public Iterable<V> values() throws Exception {
            Iterable<Map.Entry<K, V>> entries = state.entries();
            return () -> {
                Iterator<Map.Entry<K, V>> it = new SavingIterator<>(entries.iterator(), e -> e.getKey(), this);
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public V next() {
                        return it.next().getValue();
                    }

                    @Override
                    public void remove() {
                        it.remove();
                    }
                };
            };
        }

        @Override
        public Iterator<Map.Entry<K, V>> iterator() throws Exception {
            return entries().iterator();
        }

        @Override
        public boolean isEmpty() throws Exception {
            return state.isEmpty();
        }

        @Override
        public void clear() {
            try {
                for (K key : state.keys()) {
                    save(key);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            state.clear();
        }

        void saveKey(K key) {
            try {
                save(key);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void commit() {
            before.clear();
            savedIn = -1;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void rollback() throws Exception {
            for (Map.Entry<K, Object> saved : before.entrySet()) {
                if (saved.getValue() == ABSENT) {
                    state.remove(saved.getKey());
                } else {
                    state.put(saved.getKey(), (V) saved.getValue());
                }
            }
            commit();
        }
    }

    /** An iterator over a map state that saves a key before {@code remove()} takes it away. */
    private static final class SavingIterator<T, K> implements Iterator<T> {
        private final Iterator<T> delegate;
        private final java.util.function.Function<T, K> keyOf;
        private final JournaledMap<K, ?> map;
        private @Nullable T current;

        SavingIterator(Iterator<T> delegate, java.util.function.Function<T, K> keyOf, JournaledMap<K, ?> map) {
            this.delegate = delegate;
            this.keyOf = keyOf;
            this.map = map;
        }

        @Override
        public boolean hasNext() {
            return delegate.hasNext();
        }

        @Override
        public T next() {
            T next = delegate.next();
            current = next;
            return next;
        }

        @Override
        public void remove() {
            T removing = current;
            if (removing != null) {
                map.saveKey(keyOf.apply(removing));
            }
            delegate.remove();
        }
    }
}
